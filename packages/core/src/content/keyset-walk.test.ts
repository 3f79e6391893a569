import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isoAt } from '../app/clock.ts'
import type { FieldDefinition } from '../model/category.ts'
import { openContentFixture, START } from '../../test/util/content-fixture.ts'

const price: FieldDefinition = { id: 'fld_price', name: 'price', type: 'number', required: false }

/** An item to put: minutes before START, title, price (or none). */
type Spec = { minutes: number; title: string; price: number | null }

/** One step between two pages of the walk. */
type Change = { add: Spec } | { remove: number } | { nothing: true }

const item = fc.record({ minutes: fc.integer({ min: 0, max: 5 }), title: fc.constantFrom('a', 'b', 'c'), price: fc.option(fc.integer({ min: 0, max: 3 })) })
const change: fc.Arbitrary<Change> = fc.oneof(fc.record({ add: item }), fc.record({ remove: fc.nat() }), fc.constant({ nothing: true as const }))

test('a walk over all pages returns every item that stayed visible exactly once, while items come and go', async () => {
  const f = await openContentFixture()
  let run = 0
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 0, maxLength: 12 }),
        fc.array(change, { maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('published_at:desc', 'published_at:asc', 'title:asc', 'title:desc', 'custom_price:asc', 'custom_price:desc'),
        async (initial, changes, limit, sort) => {
          const { tenant, principal } = await f.tenant(`walk-${run++}`)
          const shop = await f.category(tenant, { code: 'shop', fields: [price] })
          const put = (spec: Spec) =>
            f.content(tenant, shop, {
              published_at: isoAt(START - spec.minutes * 60_000),
              title: spec.title,
              fields: spec.price === null ? {} : { fld_price: spec.price },
            })
          const present: string[] = []
          for (const spec of initial) present.push((await put(spec)).id)
          const stayed = new Set(present)
          const seen: string[] = []
          let cursor: string | null = null
          let steps = 0
          do {
            const query: string = `sort=${sort}&limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`
            const body = (await f.frontdesk.listContents(principal, new URLSearchParams(query))).body
            seen.push(...body.items.map((i) => i.id))
            cursor = body.pagination.next_cursor
            const next = changes[steps]
            if (next !== undefined && 'add' in next) present.push((await put(next.add)).id)
            if (next !== undefined && 'remove' in next && present.length > 0) {
              const [gone] = present.splice(next.remove % present.length, 1)
              if (gone !== undefined) {
                stayed.delete(gone)
                await f.remove(tenant, gone)
              }
            }
            steps++
          } while (cursor !== null && steps < 100)
          assert.is(new Set(seen).size, seen.length, 'no item twice')
          for (const id of stayed) assert.ok(seen.includes(id), `missing ${id}`)
        },
      ),
      { numRuns: 40 },
    )
  } finally {
    await f.close()
  }
})

test.run()

import fc from 'fast-check'
import * as assert from 'uvu/assert'
import { createFrontdesk } from '../../app/frontdesk.ts'
import { deleteContentItem } from '../../admin/delete-content-item.ts'
import { importRecords } from '../../admin/import-records.ts'
import { setContentStatus } from '../../admin/set-content-status.ts'
import { announceDueContent } from '../../events/announce-due.ts'
import type { Context } from '../../app/context.ts'
import type { Store } from '../../port/store.ts'
import { aTenant, T0 } from '../fixtures.ts'
import { fuzzOptions } from '../fuzz-options.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'
import { allEvents, subscribe } from './event-outbox.ts'

/*
 * A model-based check of which content events the use cases write: random sequences of
 * writes (imports, publish, unpublish, delete, categories switched off and on, an import
 * that fails and rolls back), time passing and scheduler runs, against a plain model that
 * says it the way a reader would: after a write at time t, what the write touched is
 * announced exactly when the public sees it at t; a scheduler run at t announces whatever the
 * public sees at t and was not announced. Each step's events must be the model's.
 */

type Op =
  | { kind: 'put'; item: number; category: number; status: 'draft' | 'published'; offsetMin: number; title: number }
  | { kind: 'status'; item: number; status: 'draft' | 'published' }
  | { kind: 'delete'; item: number }
  | { kind: 'category'; category: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'due' }
  | { kind: 'rollback'; item: number }

interface ModelItem {
  category: number
  status: 'draft' | 'published'
  published: number | null
  title: number
  announced: boolean
}

const ITEMS = 3
const CATEGORIES = 2

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('put' as const), item: fc.nat(ITEMS - 1), category: fc.nat(CATEGORIES - 1), status: fc.constantFrom('draft' as const, 'published' as const), offsetMin: fc.integer({ min: -3, max: 3 }), title: fc.nat(1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('status' as const), item: fc.nat(ITEMS - 1), status: fc.constantFrom('draft' as const, 'published' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), item: fc.nat(ITEMS - 1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('category' as const), category: fc.nat(CATEGORIES - 1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.constantFrom(0, 1, 30_000, 60_000, 90_000, 180_000) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'due' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rollback' as const), item: fc.nat(ITEMS - 1) }) },
)

/** The model-based check of content events over `open`'s store. */
export function eventModelCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: content events against a model`, open)

  s('random writes, time and scheduler runs write exactly the events the model expects', async ({ store }) => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
        run++
        await checkSequence(store, `ten_m${run}`, ops)
      }),
      { ...fuzzOptions(40), endOnFailure: true },
    )
  })

  s.run()
}

async function checkSequence(store: Store, tenantId: string, ops: readonly Op[]): Promise<void> {
  const clock = { ms: Date.parse(T0) }
  const ctx: Context = createFrontdesk({ store, clock: { now: () => clock.ms }, memo: false }).context
  const tenant = aTenant(tenantId)
  await store.createTenant(tenant)
  await subscribe(store, tenantId)
  const categories = Array.from({ length: CATEGORIES }, () => ({ active: true }))
  await importRecords(ctx, { tenantCode: tenant.code, records: categories.map((_, c) => ({ record: categoryRecord(c, true), location: `c${c}` })) })
  const items = new Map<number, ModelItem>()
  let after = (await allEvents(store, 0, tenantId)).at(-1)?.seq ?? 0

  const visible = (item: ModelItem): boolean =>
    categories[item.category]?.active === true && item.status === 'published' && item.published !== null && item.published <= clock.ms
  /** The model's events of one write of `item` at the clock's time. */
  const rewrite = (n: number, item: ModelItem, changed: boolean, expected: string[]): void => {
    const is = visible(item)
    if (is && !item.announced) expected.push(`content.published:s${n}`)
    else if (is && changed) expected.push(`content.updated:s${n}`)
    else if (!is && item.announced) expected.push(`content.unpublished:s${n}`)
    item.announced = is
  }

  for (const [step, o] of ops.entries()) {
    const expected: string[] = []
    switch (o.kind) {
      case 'put': {
        const published = clock.ms + o.offsetMin * 60_000
        await importRecords(ctx, { tenantCode: tenant.code, records: [{ record: contentRecord(o.item, o.category, o.status, published, o.title), location: 'r' }] })
        const before = items.get(o.item)
        const next: ModelItem = { category: o.category, status: o.status, published, title: o.title, announced: before?.announced ?? false }
        const changed = before === undefined || before.category !== o.category || before.status !== o.status || before.published !== published || before.title !== o.title
        items.set(o.item, next)
        if (changed) rewrite(o.item, next, before !== undefined, expected)
        break
      }
      case 'status': {
        const item = items.get(o.item)
        const done = await setContentStatus(ctx, tenant.code, `s${o.item}`, o.status).then(() => true, () => false)
        assert.is(done, item !== undefined, 'a missing item is refused')
        if (item === undefined || item.status === o.status) break
        item.status = o.status
        if (o.status === 'published' && item.published === null) item.published = clock.ms
        rewrite(o.item, item, true, expected)
        break
      }
      case 'delete': {
        const item = items.get(o.item)
        const done = await deleteContentItem(ctx, tenant.code, `s${o.item}`).then(() => true, () => false)
        assert.is(done, item !== undefined)
        if (item?.announced === true) expected.push(`content.deleted:s${o.item}`)
        items.delete(o.item)
        break
      }
      case 'category': {
        // Hint: switched, so that every step changes something.
        const category = categories[o.category]
        if (category === undefined) break
        category.active = !category.active
        await importRecords(ctx, { tenantCode: tenant.code, records: [{ record: categoryRecord(o.category, category.active), location: 'r' }] })
        for (const [n, item] of items) if (item.category === o.category) rewrite(n, item, false, expected)
        break
      }
      case 'tick':
        clock.ms += o.ms
        break
      case 'due':
        await announceDueContent(ctx, tenantId)
        for (const [n, item] of items) {
          if (visible(item) && !item.announced) {
            expected.push(`content.published:s${n}`)
            item.announced = true
          }
        }
        break
      case 'rollback': {
        const records = [
          { record: contentRecord(o.item, 0, 'published', clock.ms - 60_000, 1), location: 'r1' },
          { record: { kind: 'content', slug: 'bad', title: 'no category' }, location: 'r2' },
        ]
        await importRecords(ctx, { tenantCode: tenant.code, records }).then(() => assert.unreachable('the import fails'), () => undefined)
        break
      }
    }
    const events = await allEvents(store, after, tenantId)
    after = events.at(-1)?.seq ?? after
    const got = events.map((e) => `${e.type}:${String(e.data['slug'])}`)
    assert.equal(got.slice().sort(), expected.slice().sort(), `step ${step} ${JSON.stringify(o)} of ${JSON.stringify(ops)}`)
    for (const event of events) assert.is(event.tenant_id, tenantId)
  }
}

function categoryRecord(c: number, active: boolean) {
  return { kind: 'category', code: `c${c}`, name: `Category ${c}`, active }
}

function contentRecord(n: number, c: number, status: 'draft' | 'published', published: number, title: number) {
  return { kind: 'content', slug: `s${n}`, title: `Item ${n} v${title}`, category_code: `c${c}`, status, published_at: new Date(published).toISOString() }
}

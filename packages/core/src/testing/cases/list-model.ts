import * as assert from 'uvu/assert'
import type { CategoryRecord, FieldValue } from '../../model/category.ts'
import type { ContentRecord } from '../../model/content.ts'
import type { ContentQuery, ContentSort, ContentVisibility } from '../../port/content-query.ts'
import { modelListContents, sortValueOf } from '../content-query-model.ts'
import { aCategory, aContent, aTag, aTenant, at, FIELDS } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** A small deterministic random source (mulberry32), so that a failure can be replayed by its seed. */
function random(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T
  const some = <T>(list: readonly T[], max: number): T[] => list.filter(() => next() < max / list.length)
  return { next, int, pick, some }
}

const TAGS = ['red', 'green', 'blue', 'cyan'] as const
const CATEGORY_IDS = ['cat_a', 'cat_b', 'cat_c'] as const
const VALUES = {
  [FIELDS.text.id]: ['ant', 'bee', 'Cat', 'ant'],
  [FIELDS.number.id]: [-1, 0, 2.5, 7, 7],
  [FIELDS.boolean.id]: [true, false],
  [FIELDS.date.id]: ['2025-01-01', '2025-06-20T12:00:00.000Z', '2024-12-31'],
} as Record<string, FieldValue[]>

/** `listContents` against a plain-code model, over seeded random catalogues and queries. */
export function listModelCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: listContents matches the query model on random catalogues`, open)

  s('random catalogues and queries: every page and every keyset walk equals the model', async ({ store }) => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = random(seed)
      const tenantId = `ten_seed${seed}`
      await store.createTenant(aTenant(tenantId))
      const categories: CategoryRecord[] = CATEGORY_IDS.map((id) => aCategory(tenantId, id, { active: r.next() < 0.7, fields: Object.values(FIELDS) }))
      const items: ContentRecord[] = []
      for (let n = 0; n < 25; n++) {
        const fields: Record<string, FieldValue> = {}
        for (const [fieldId, values] of Object.entries(VALUES)) if (r.next() < 0.6) fields[fieldId] = r.pick(values)
        const status = r.next() < 0.75 ? 'published' : 'draft'
        items.push(
          aContent(tenantId, `cnt_${String(n).padStart(2, '0')}`, r.pick(CATEGORY_IDS), {
            status,
            published_at: status === 'draft' && r.next() < 0.5 ? null : at(r.pick([-120, -60, -60, 0, 30])),
            title: r.pick(['Alpha', 'beta', 'Beta', 'alpha', 'Gamma']),
            updated_at: at(r.int(4)),
            tags: r.some(TAGS, 2).map((tag) => ({ id: `tag_${tag}`, name: tag })),
            fields,
          }),
        )
      }
      await store.transaction(async (tx) => {
        for (const category of categories) await tx.putCategory(category)
        for (const tag of TAGS) await tx.putTag(aTag(tenantId, `tag_${tag}`, tag))
        for (const item of items) await tx.putContent(item)
      })

      for (let q = 0; q < 12; q++) {
        const query = randomQuery(r)
        const where = `seed ${seed}, query ${JSON.stringify(query)}`
        const expected = modelListContents(items, categories, { ...query, limit: 1000 }).map((i) => i.id)
        const got = (await store.listContents(tenantId, { ...query, limit: 1000 })).map((i) => i.id)
        assert.equal(got, expected, where)
        const walked: string[] = []
        let after: ContentQuery['after']
        for (let page = 0; page < 100; page++) {
          const rows = await store.listContents(tenantId, { ...query, ...(after === undefined ? {} : { after }) })
          walked.push(...rows.map((i) => i.id))
          const last = rows.at(-1)
          if (rows.length < query.limit || last === undefined) break
          after = { value: sortValueOf(last, query.sort), id: last.id }
        }
        assert.equal(walked, expected, `walk: ${where}`)
      }
    }
  })

  s.run()
}

function randomQuery(r: ReturnType<typeof random>): ContentQuery {
  const visibility: ContentVisibility = r.pick([
    { kind: 'all' },
    { kind: 'public', now: at(0) },
    { kind: 'public', now: at(45) },
    { kind: 'public', now: at(0), previewCategoryId: 'cat_b' },
  ] as const)
  const key: ContentSort['key'] = r.pick(['published_at', 'title', 'updated_at', 'id', { field: FIELDS.number }, { field: FIELDS.text }, { field: FIELDS.boolean }, { field: FIELDS.date }] as const)
  const query: ContentQuery = { visibility, sort: { key, direction: r.pick(['asc', 'desc'] as const) }, limit: 1 + r.int(6) }
  if (r.next() < 0.3) query.categoryIds = r.some(CATEGORY_IDS, 2)
  if (r.next() < 0.3) query.tagNames = r.some(TAGS, 1.5)
  if (r.next() < 0.2) query.tagIds = r.some(TAGS, 1).map((tag) => `tag_${tag}`)
  if (r.next() < 0.3) {
    const field = r.pick([FIELDS.number, FIELDS.text, FIELDS.boolean, FIELDS.date])
    query.fieldEquals = [{ field, value: r.pick(VALUES[field.id] ?? []) }]
  }
  return query
}

import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FrontdeskError } from '../errors/frontdesk-error.ts'
import { lines, openAdminFixture } from '../../test/util/admin-fixture.ts'
import { importRecords } from './import-records.ts'

const fieldName = fc.constantFrom('price', 'area', 'when', 'flag', 'note', 'Bad', 'body', '')
const field = fc.record(
  {
    id: fc.constantFrom('f1', 'f2', 'bad id'),
    name: fieldName,
    type: fc.constantFrom('text', 'number', 'date', 'boolean', 'select', 'money'),
    options: fc.array(fc.constantFrom('a', 'b', '', 'a'), { maxLength: 3 }),
    required: fc.oneof(fc.boolean(), fc.constant('yes')),
  },
  { requiredKeys: ['name', 'type'] },
)
const code = fc.constantFrom('news', 'blog', 'x y', '')
const category = fc.record(
  { kind: fc.constant('category'), id: fc.constantFrom('c1', 'c2'), code, name: fc.string({ maxLength: 5 }), sort: fc.oneof(fc.integer(), fc.double()), active: fc.boolean(), fields: fc.array(field, { maxLength: 3 }) },
  { requiredKeys: ['kind', 'code', 'name'] },
)
const tag = fc.record({ kind: fc.constant('tag'), id: fc.constantFrom('t1', 't2'), name: fc.string({ maxLength: 4 }) }, { requiredKeys: ['kind', 'name'] })
const inquiryCategory = fc.record(
  { kind: fc.constant('inquiry_category'), code, name: fc.string({ maxLength: 4 }), message: fc.string({ maxLength: 4 }), active: fc.boolean() },
  { requiredKeys: ['kind', 'code', 'name'] },
)
const value = fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null), fc.constantFrom('a', '2025-06-20', '2025-02-30'))
const content = fc.record(
  {
    kind: fc.constant('content'),
    id: fc.constantFrom('p', 'q', 'r'),
    slug: fc.constantFrom('a', 'b', 'c', 'B!'),
    title: fc.string({ maxLength: 4 }),
    category_code: code,
    category_id: fc.constantFrom('c1', 'c2', 'zz'),
    status: fc.constantFrom('draft', 'published', 'live'),
    published_at: fc.constantFrom('2025-01-01', '2025-06-20T10:00:00+09:00', 'soon', null),
    tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
    content: fc.dictionary(fieldName, value, { maxKeys: 3 }),
    meta: fc.dictionary(fc.constantFrom('og_title', 'og_description', 'robots'), value, { maxKeys: 2 }),
  },
  { requiredKeys: ['kind', 'slug', 'title'] },
)
const valid = fc.oneof(category, tag, inquiryCategory, content)
// A valid-looking record with one key dropped, added or replaced by anything at all.
const mutated = fc.tuple(valid, fc.string({ maxLength: 8 }), fc.anything(), fc.nat()).map(([record, key, junk, pick]) => {
  const copy: Record<string, unknown> = { ...record }
  const keys = Object.keys(copy)
  const target = keys[pick % keys.length] ?? key
  if (pick % 3 === 0) delete copy[target]
  else if (pick % 3 === 1) copy[key] = junk
  else copy[target] = junk
  return copy
})
const record = fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: mutated, weight: 3 }, { arbitrary: fc.anything(), weight: 1 })

// Records valid whatever came before them in a tenant that only ever receives such batches:
// one category definition that never changes, and items, tags and inquiry categories keyed by
// their natural keys. A batch of random `record`s applies only ~3 % of the time, too rarely for
// 150 runs to show it reliably (≈ 1 % of runs saw none); these must apply every time.
const cleanCategory = { kind: 'category', code: 'news', name: 'News', fields: [{ name: 'price', type: 'number' }] }
const cleanRecord = fc.oneof(
  fc.record({ kind: fc.constant('tag'), name: fc.constantFrom('tokyo', '東京', 'news') }),
  fc.record({ kind: fc.constant('inquiry_category'), code: fc.constantFrom('contact', 'sales'), name: fc.constantFrom('Contact', 'お問い合わせ') }),
  fc.record(
    {
      kind: fc.constant('content'),
      slug: fc.constantFrom('a', 'b', 'c'),
      title: fc.constantFrom('Hello', '今日は'),
      category_code: fc.constant('news'),
      status: fc.constantFrom('draft', 'published'),
      tags: fc.array(fc.constantFrom('tokyo', '東京', 'sale'), { maxLength: 3 }),
      content: fc.record({ price: fc.integer({ min: 0, max: 1000 }) }, { requiredKeys: [] }),
    },
    { requiredKeys: ['kind', 'slug', 'title', 'category_code'] },
  ),
)
const batch = fc.oneof(
  { arbitrary: fc.array(record, { minLength: 1, maxLength: 6 }).map((records) => ({ clean: false, records })), weight: 3 },
  { arbitrary: fc.array(cleanRecord, { maxLength: 5 }).map((records) => ({ clean: true, records: [cleanCategory, ...records] })), weight: 1 },
)

test('random and mutated import records are either applied or refused with a FrontdeskError that writes nothing', async () => {
  const f = await openAdminFixture()
  try {
    await f.tenant('acme')
    await f.tenant('clean')
    let applied = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(batch, async ({ clean, records }) => {
        if (clean) {
          const summary = await importRecords(f.ctx, { tenantCode: 'clean', records: lines(records) })
          const items = records.filter((r) => (r as { kind: string }).kind === 'content').length
          const counted = summary.contents.created + summary.contents.updated + summary.contents.unchanged
          assert.is(counted, items)
          applied++
          return
        }
        const before = await f.dump()
        try {
          await importRecords(f.ctx, { tenantCode: 'acme', records: lines(records) })
          applied++
        } catch (error) {
          refused++
          assert.instance(error, FrontdeskError)
          assert.match((error as Error).message, /^line \d+: /)
          assert.equal(await f.dump(), before)
        }
      }),
      { numRuns: 150 },
    )
    // The generators must exercise both outcomes, or the property says little.
    assert.ok(applied > 0 && refused > 0, `applied ${applied}, refused ${refused}`)
  } finally {
    await f.close()
  }
})

test.run()

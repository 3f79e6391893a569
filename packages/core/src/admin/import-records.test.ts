import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { AdminFixture } from '../../test/util/admin-fixture.ts'
import { lines, openAdminFixture, rejection, START } from '../../test/util/admin-fixture.ts'
import { importRecords } from './import-records.ts'

const test = suite<{ f: AdminFixture }>('importRecords', {} as { f: AdminFixture })
test.before.each(async (context) => {
  context.f = await openAdminFixture()
  await context.f.tenant('acme')
})
test.after.each(async (context) => {
  await context.f.close()
})

const iso = (ms: number) => new Date(ms).toISOString()
const news = {
  kind: 'category',
  code: 'news',
  name: 'News',
  fields: [
    { name: 'price', type: 'number' },
    { name: 'area', type: 'select', options: ['east', 'west'], required: true },
    { name: 'event_date', type: 'date' },
  ],
}
const hello = { kind: 'content', slug: 'hello', title: 'Hello', category_code: 'news', content: { area: 'east' } }
const run = (f: AdminFixture, records: unknown[], dryRun = false) => importRecords(f.ctx, { tenantCode: 'acme', records: lines(records), dryRun })

test('records of every kind are created, with generated ids and version 1', async ({ f }) => {
  const summary = await run(f, [
    news,
    { kind: 'tag', name: 'release' },
    { ...hello, status: 'published', tags: ['release', 'new', 'release'], content: { area: 'east', price: 3, event_date: '2025-06-20T09:00:00+09:00' } },
    { kind: 'inquiry_category', code: 'general', name: 'General' },
  ])
  assert.equal(summary, {
    dry_run: false,
    records: 4,
    categories: { created: 1, updated: 0, unchanged: 0 },
    tags: { created: 2, updated: 0, unchanged: 0 },
    contents: { created: 1, updated: 0, unchanged: 0 },
    inquiry_categories: { created: 1, updated: 0, unchanged: 0 },
    synonyms: { created: 0, updated: 0, unchanged: 0 },
  })
  const [item] = await f.contents()
  const tenant = await f.store.getTenantByCode('acme')
  const category = await f.store.getCategoryByCode(tenant?.id ?? '', 'news')
  assert.ok(item && category)
  assert.match(item.id, /^cnt_/)
  assert.is(item.version, 1)
  assert.is(item.published_at, iso(START), 'published without published_at means now')
  assert.equal(item.tags.map((t) => t.name), ['release', 'new'])
  const ids = Object.fromEntries(category.fields.map((fd) => [fd.name, fd.id]))
  assert.equal(item.fields, { [ids['area'] ?? '']: 'east', [ids['price'] ?? '']: 3, [ids['event_date'] ?? '']: '2025-06-20T00:00:00.000Z' })
  assert.equal(item.meta, { og_title: '', og_description: '' })
  const inquiry = await f.store.getInquiryCategoryByCode(tenant?.id ?? '', 'general')
  assert.is(inquiry?.message, 'Thank you. Your inquiry has been received.')
  assert.is(inquiry?.active, true)
})

test('importing the same records again changes nothing: versions and timestamps stay', async ({ f }) => {
  const records = [news, { ...hello, status: 'published', tags: ['a'], meta: { og_title: 'T', robots: 'noindex' } }]
  await run(f, records)
  const before = await f.contents()
  f.clock.advance(3_600_000)
  const summary = await run(f, records)
  assert.equal(summary.contents, { created: 0, updated: 0, unchanged: 1 })
  assert.equal(summary.categories, { created: 0, updated: 0, unchanged: 1 })
  assert.equal(summary.tags, { created: 0, updated: 0, unchanged: 0 })
  assert.equal(await f.contents(), before)
})

test('a real change bumps the version by one and sets updated_at', async ({ f }) => {
  await run(f, [news, hello])
  f.clock.advance(1000)
  const summary = await run(f, [news, { ...hello, title: 'Hello again' }])
  assert.equal(summary.contents, { created: 0, updated: 1, unchanged: 0 })
  const [item] = await f.contents()
  assert.is(item?.title, 'Hello again')
  assert.is(item?.version, 2)
  assert.is(item?.created_at, iso(START))
  assert.is(item?.updated_at, iso(START + 1000))
})

test('items read ahead are read again once the import changes them: the item written, or a tag it holds renamed', async ({ f }) => {
  const item = { ...hello, id: 'h1', status: 'published', tags: ['one'] }
  const other = { ...hello, id: 'h2', slug: 'other', status: 'published', tags: ['one'] }
  await run(f, [news, { kind: 'tag', id: 't1', name: 'one' }, item, other])
  f.clock.advance(1000)
  const twice = { ...item, title: 'Hello twice' }
  const summary = await run(f, [
    twice,
    twice,
    { kind: 'tag', id: 't1', name: 'uno' },
    { ...twice, tags: ['uno'] },
    { ...other, tags: ['uno'] },
    { ...news, name: 'Nachrichten' },
    { ...twice, tags: ['uno'] },
  ])
  assert.equal(summary.contents, { created: 0, updated: 1, unchanged: 4 }, 'only the title changed an item, once')
  const stored = (await f.contents()).find((c) => c.id === 'h1')
  assert.equal([stored?.title, stored?.version, stored?.tags.map((t) => t.name)], ['Hello twice', 2, ['uno']])
})

test('records are upserted by id, else by slug; an id-matched record may change its slug', async ({ f }) => {
  await run(f, [news, { ...hello, id: 'hello-id' }, { ...hello, slug: 'other', title: 'Other' }])
  await run(f, [{ ...hello, id: 'hello-id', slug: 'hello-renamed' }, { ...hello, slug: 'other', title: 'Other 2' }])
  const items = await f.contents()
  assert.equal(items.map((i) => [i.slug, i.title, i.version]).sort(), [['hello-renamed', 'Hello', 2], ['other', 'Other 2', 2]])
})

test('a new slug that belongs to another item is a conflict, and nothing is written', async ({ f }) => {
  await run(f, [news, { ...hello, id: 'one' }, { ...hello, id: 'two', slug: 'second' }])
  const before = await f.dump()
  const error = await rejection(run(f, [{ ...hello, id: 'two', slug: 'second', title: 'changed' }, { ...hello, id: 'two', slug: 'hello' }]))
  assert.instance(error, UsageError)
  assert.is(error.message, 'line 2: slug: is already the slug of content one')
  assert.equal(await f.dump(), before)
})

test('a text no store can hold (U+0000, which PostgreSQL refuses) is refused with its path, anywhere in a record, and nothing is written', async ({ f }) => {
  await run(f, [news])
  const before = await f.dump()
  const cases: [unknown, string][] = [
    [{ ...hello, body: 'a\u0000b' }, 'line 2: body: must not contain U+0000 (NUL)'],
    [{ ...hello, tags: ['ok', 'n\u0000'] }, 'line 2: tags[1]: must not contain U+0000 (NUL)'],
    [{ ...hello, meta: { og_title: 'x\u0000' } }, 'line 2: meta.og_title: must not contain U+0000 (NUL)'],
    [{ ...hello, content: { 'a\u0000': 1 } }, 'line 2: content.a\u0000: must not contain U+0000 (NUL)'],
    [{ kind: 'tag', name: '\u0000' }, 'line 2: name: must not contain U+0000 (NUL)'],
  ]
  for (const [record, message] of cases) {
    const error = await rejection(run(f, [news, record]))
    assert.instance(error, UsageError)
    assert.is(error.message, message)
  }
  assert.equal(await f.dump(), before)
})

test('a given id that does not exist is created with that id unless its slug is taken', async ({ f }) => {
  await run(f, [news, hello])
  assert.match((await rejection(run(f, [{ ...hello, id: 'new-id' }]))).message, /^line 1: slug: is already the slug of content cnt_/)
  await run(f, [{ ...hello, id: 'new-id', slug: 'fresh' }])
  assert.ok((await f.contents()).some((c) => c.id === 'new-id'))
})

test('categories are upserted by id, else code; a code belonging to another category is a conflict', async ({ f }) => {
  await run(f, [{ ...news, id: 'cat-news' }, { kind: 'category', id: 'cat-blog', code: 'blog', name: 'Blog' }])
  const summary = await run(f, [{ ...news, name: 'News!' }, { kind: 'category', id: 'cat-blog', code: 'weblog', name: 'Blog' }])
  assert.equal(summary.categories, { created: 0, updated: 2, unchanged: 0 })
  const error = await rejection(run(f, [{ kind: 'category', id: 'cat-blog', code: 'news', name: 'Blog' }]))
  assert.is(error.message, 'line 1: code: is already the code of category cat-news')
})

test('a category reference must name a category defined earlier or already stored', async ({ f }) => {
  const error = await rejection(run(f, [hello, news]))
  assert.instance(error, UsageError)
  assert.match(error.message, /^line 1: category_code: no category with this code \(define the category earlier/)
  assert.equal(await f.dump(), [])
  await run(f, [news])
  await run(f, [hello])
  const bad = await rejection(run(f, [{ ...hello, category_code: undefined, category_id: 'nope' }]))
  assert.match(bad.message, /^line 1: category_id: no category with this id/)
  assert.match((await rejection(run(f, [{ ...hello, category_code: undefined }]))).message, /category_code: category_code or category_id is required/)
})

test('category_id and category_code must agree when both are given', async ({ f }) => {
  await run(f, [{ ...news, id: 'n' }, { kind: 'category', id: 'b', code: 'blog', name: 'Blog' }])
  assert.match((await rejection(run(f, [{ ...hello, category_id: 'b' }]))).message, /category_id: names another category than category_code/)
  assert.is((await run(f, [{ ...hello, category_id: 'n' }])).contents.created, 1)
})

test('custom-field values are checked against the category: every problem is named', async ({ f }) => {
  await run(f, [news])
  const error = await rejection(run(f, [{ ...hello, content: { price: '3', colour: 'red', event_date: '2025-13-01' } }]))
  assert.instance(error, UsageError)
  assert.equal((error as UsageError).details, [
    { field: 'content.price', message: 'must be a finite number' },
    { field: 'content.colour', message: 'is not a field of this category' },
    { field: 'content.event_date', message: 'must be an ISO 8601 date (2025-06-20) or date-time' },
    { field: 'content.area', message: 'is required by the category' },
  ])
  assert.match(error.message, /^line 1: content\.price: must be a finite number; content\.colour: /)
  assert.match((await rejection(run(f, [{ ...hello, content: { area: 'north' } }]))).message, /content\.area: must be one of: east, west/)
})

test('field ids are kept by name when a category is re-imported without them', async ({ f }) => {
  await run(f, [news, hello])
  const tenant = await f.store.getTenantByCode('acme')
  const first = await f.store.getCategoryByCode(tenant?.id ?? '', 'news')
  const summary = await run(f, [news, hello])
  assert.equal(summary.categories.unchanged, 1)
  assert.equal((await f.store.getCategoryByCode(tenant?.id ?? '', 'news'))?.fields, first?.fields)
})

test("a field's type cannot change; a new field (new name, or a new id) can replace it", async ({ f }) => {
  await run(f, [news, hello])
  const changed = { ...news, fields: [{ name: 'price', type: 'text' }, ...news.fields.slice(1)] }
  assert.match((await rejection(run(f, [changed]))).message, /^line 1: fields\.0\.type: cannot change from number to text/)
  const renamed = { ...news, fields: [{ name: 'price_label', type: 'text' }, ...news.fields.slice(1)] }
  assert.equal((await run(f, [renamed])).categories, { created: 0, updated: 1, unchanged: 0 })
})

test('a category redefined more strictly has every item checked again: stored items it would refuse refuse the import', async ({ f }) => {
  const other = { ...hello, slug: 'other', content: { area: 'west', price: 1 } }
  await run(f, [news, hello, other])
  const before = await f.dump()
  const withFields = (fields: object[]) => ({ ...news, fields })
  // A new required field: both stored items lack it; nothing is written, dry run or not.
  const newRequired = withFields([...news.fields, { name: 'venue', type: 'text', required: true }])
  for (const dryRun of [false, true]) {
    const error = await rejection(run(f, [{ kind: 'tag', name: 'fresh' }, newRequired], dryRun))
    assert.instance(error, UsageError)
    assert.match(error.message, /^line 2: category news no longer accepts items it holds; .*: content\.venue: is required by the category \(content hello\); content\.venue: is required by the category \(content other\)$/)
    assert.equal(await f.dump(), before)
  }
  // An optional field made required: only the item without a value is named.
  const priceRequired = withFields(news.fields.map((field) => (field.name === 'price' ? { ...field, required: true } : field)))
  assert.equal((await rejection(run(f, [priceRequired]))).message.match(/\(content \w+\)/g), ['(content hello)'])
  // A select option that an item holds cannot go; one nobody holds can.
  const areas = (options: string[]) => withFields(news.fields.map((field) => (field.name === 'area' ? { ...field, options } : field)))
  assert.match((await rejection(run(f, [areas(['east'])]))).message, /content\.area: must be one of: east \(content other\)/)
  assert.equal((await run(f, [areas(['east', 'west', 'north'])])).categories.updated, 1)
  assert.equal((await run(f, [areas(['east', 'west'])])).categories.updated, 1)
  // Items given values later in the same import make the redefinition acceptable...
  const summary = await run(f, [newRequired, { ...hello, content: { area: 'east', venue: 'Hall' } }, { ...other, content: { ...other.content, venue: 'Dome' } }])
  assert.equal(summary.contents.updated, 2)
  // ...but an item imported before the redefinition is checked against the final definition too.
  const stricter = withFields([...newRequired.fields, { name: 'capacity', type: 'number', required: true }])
  const late = await rejection(run(f, [{ ...hello, slug: 'late', content: { area: 'east', venue: 'Hall' } }, stricter]))
  assert.match(late.message, /^line 2: category news no longer accepts/)
  assert.equal(late.message.match(/\(content \w+\)/g)?.sort(), ['(content hello)', '(content late)', '(content other)'])
})

test('a refused redefinition names at most ten items and counts the others', async ({ f }) => {
  await run(f, [news, ...Array.from({ length: 13 }, (_, i) => ({ ...hello, slug: `item-${String(i).padStart(2, '0')}` }))])
  const error = await rejection(run(f, [{ ...news, fields: [...news.fields, { name: 'venue', type: 'text', required: true }] }]))
  assert.is((error as UsageError).details?.length, 11)
  assert.match(error.message, /fields: and 3 more items of this category$/)
})

test('field definitions are checked: select needs options, options only for select, names unique and not reserved', async ({ f }) => {
  const field = (extra: object) => ({ kind: 'category', code: 'c', name: 'C', fields: [extra] })
  assert.match((await rejection(run(f, [field({ name: 'kind_of', type: 'select' })]))).message, /fields\.0\.options: is required for a select field/)
  assert.match((await rejection(run(f, [field({ name: 'n', type: 'text', options: ['a'] })]))).message, /fields\.0\.options: is allowed for select fields only/)
  assert.match((await rejection(run(f, [field({ name: 'body', type: 'text' })]))).message, /fields\.0\.name: must not be one of: body, summary/)
  assert.match((await rejection(run(f, [field({ name: 'Price', type: 'number' })]))).message, /fields\.0\.name: must match/)
  assert.match((await rejection(run(f, [field({ name: 'n', type: 'money' })]))).message, /fields\.0\.type: must be one of: text, number, date, boolean, select/)
  const twice = { kind: 'category', code: 'c', name: 'C', fields: [{ name: 'n', type: 'text' }, { name: 'n', type: 'number' }] }
  assert.match((await rejection(run(f, [twice]))).message, /fields\.1\.name: is already the name of another field/)
})

test('record shapes are strict: unknown keys, wrong types and bad kinds are named with their location', async ({ f }) => {
  await run(f, [news])
  assert.is((await rejection(run(f, [{ ...hello, colour: 'red' }]))).message, 'line 1: colour: is not a known field')
  assert.is((await rejection(run(f, [{ ...hello, kind: 'post' }]))).message, 'line 1: kind: must be category, tag, content, inquiry_category or synonyms')
  assert.is((await rejection(run(f, [42]))).message, 'line 1: record: must be a JSON object')
  assert.is((await rejection(run(f, [[hello]]))).message, 'line 1: record: must be a JSON object')
  assert.match((await rejection(run(f, [{ ...hello, slug: 'Hello World' }]))).message, /^line 1: slug: must be 1-200 characters/)
  assert.match((await rejection(run(f, [{ ...hello, title: ' ' }]))).message, /^line 1: title: must not be empty/)
  assert.match((await rejection(run(f, [{ ...hello, status: 'live' }]))).message, /^line 1: status: must be draft or published/)
  assert.match((await rejection(run(f, [{ ...hello, published_at: 'yesterday' }]))).message, /^line 1: published_at: must be an ISO 8601/)
  assert.match((await rejection(run(f, [{ ...hello, tags: ['a,b'] }]))).message, /^line 1: tags\.0: must not contain a comma/)
  assert.match((await rejection(run(f, [{ ...hello, meta: { og_title: 1 } }]))).message, /^line 1: meta: og_title must be a string/)
  assert.match((await rejection(run(f, [{ ...hello, id: 'has space' }]))).message, /^line 1: id: must be 1-64 characters/)
})

test('one invalid record, even the last, writes nothing', async ({ f }) => {
  await run(f, [news, hello])
  const before = await f.dump()
  const records = [{ ...hello, title: 'changed' }, { kind: 'tag', name: 'brand-new' }, { ...news, code: 'blog' }, { ...hello, slug: 'x', content: {} }]
  const error = await rejection(run(f, records))
  assert.match(error.message, /^line 4: content\.area: is required by the category$/)
  assert.equal(await f.dump(), before)
})

test('a dry run reports what would change and writes nothing', async ({ f }) => {
  await run(f, [news])
  const before = await f.dump()
  const summary = await run(f, [news, hello, { ...hello, slug: 'two' }], true)
  assert.is(summary.dry_run, true)
  assert.equal(summary.contents, { created: 2, updated: 0, unchanged: 0 })
  assert.equal(summary.categories, { created: 0, updated: 0, unchanged: 1 })
  assert.equal(await f.dump(), before)
  assert.match((await rejection(run(f, [hello, { kind: 'x' }], true))).message, /^line 2: kind/)
})

test('tags are upserted by id, else name; renaming onto another tag is a conflict', async ({ f }) => {
  await run(f, [{ kind: 'tag', id: 't1', name: 'one' }, { kind: 'tag', id: 't2', name: ' two ' }])
  const summary = await run(f, [{ kind: 'tag', id: 't1', name: 'uno' }, { kind: 'tag', name: 'two' }])
  assert.equal(summary.tags, { created: 0, updated: 1, unchanged: 1 })
  assert.is((await rejection(run(f, [{ kind: 'tag', id: 't1', name: 'two' }]))).message, 'line 1: name: is already the name of tag t2')
  const tenant = await f.store.getTenantByCode('acme')
  assert.equal((await f.store.listTags(tenant?.id ?? '')).map((t) => t.name), ['two', 'uno'])
})

test('an omitted published_at keeps the stored one; a date alone means midnight UTC', async ({ f }) => {
  await run(f, [news, { ...hello, status: 'published', published_at: '2025-01-02' }])
  f.clock.advance(1000)
  await run(f, [news, { ...hello, status: 'published' }])
  const [item] = await f.contents()
  assert.is(item?.published_at, '2025-01-02T00:00:00.000Z')
  assert.is(item?.version, 1)
})

test('a draft without published_at has none; further meta keys pass through', async ({ f }) => {
  await run(f, [news, { ...hello, meta: { og_description: 'D', robots: 'noindex', extra: { deep: [1, null] } } }])
  const [item] = await f.contents()
  assert.is(item?.published_at, null)
  assert.equal(item?.meta, { og_title: '', og_description: 'D', robots: 'noindex', extra: { deep: [1, null] } })
})

test('inquiry categories are upserted by code and keep a given message', async ({ f }) => {
  await run(f, [{ kind: 'inquiry_category', code: 'sales', name: 'Sales', message: 'ありがとうございます。' }])
  const summary = await run(f, [{ kind: 'inquiry_category', code: 'sales', name: 'Sales', sort: 2, active: false, message: 'ありがとうございます。' }])
  assert.equal(summary.inquiry_categories, { created: 0, updated: 1, unchanged: 0 })
  const tenant = await f.store.getTenantByCode('acme')
  const stored = await f.store.getInquiryCategoryByCode(tenant?.id ?? '', 'sales')
  assert.equal([stored?.message, stored?.sort, stored?.active], ['ありがとうございます。', 2, false])
})

test('an unknown tenant is named; progress is reported per record', async ({ f }) => {
  assert.is((await rejection(importRecords(f.ctx, { tenantCode: 'nope', records: [] }))).message, 'Unknown tenant: nope')
  const seen: number[] = []
  await importRecords(f.ctx, { tenantCode: 'acme', records: lines([news, hello]), onProgress: (n) => seen.push(n) })
  assert.equal(seen, [1, 2])
})

test('records of one tenant never touch another', async ({ f }) => {
  await f.tenant('other')
  await run(f, [{ ...news, id: 'shared-id' }, { ...hello, id: 'same' }])
  await importRecords(f.ctx, { tenantCode: 'other', records: lines([{ ...news, id: 'shared-id' }, { ...hello, id: 'same', title: 'Other' }]) })
  assert.is((await f.contents('acme'))[0]?.title, 'Hello')
  assert.is((await f.contents('other'))[0]?.title, 'Other')
})

test.run()

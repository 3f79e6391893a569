import type { SearchQuery } from '@frontdesk/core'
import { newestFirst, parseQueryTerms, searchedTexts } from '@frontdesk/core'
import { aCategory, aContent } from '@frontdesk/core/testing'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { REMEMBER_TERM_FROM } from '../matching/term-matcher.ts'
import { MAX_REMEMBERED_HITS, MAX_REMEMBERED_SEARCHES } from './search-memory.ts'
import { publishedKey, slowPublishedKey } from './published-keys.ts'
import { AnalyzedDocsWriter, AnalyzedReader } from '../matching/analyzed-docs.ts'
import { decodeSnapshot, encodeSnapshot } from '../snapshots/snapshot-codec.ts'
import { searchDocumentOf, TenantSearchIndex } from './tenant-index.ts'

const NOW = '2030-01-01T00:00:00.000Z'
const categories = [
  aCategory('t1', 'news', { fields: [{ id: 'f_minutes', name: 'minutes', type: 'number', required: false }] }),
  aCategory('t1', 'blog', { fields: [{ id: 'f_minutes_b', name: 'minutes', type: 'number', required: false }] }),
]

function query(overrides: Partial<SearchQuery>): SearchQuery {
  return { terms: parseQueryTerms('office'), now: NOW, categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10_000, ...overrides }
}

test('field filters stay exact as items change, are removed and the index compacts (columns follow the renumbering)', () => {
  const index = new TenantSearchIndex(categories)
  const minutes = (i: number, round: number) => (i * 7 + round * 3) % 40
  const put = (i: number, round: number) =>
    index.upsert(aContent('t1', `c${i}`, i % 2 === 0 ? 'news' : 'blog', { title: `office ${i}`, fields: i % 5 === 0 ? {} : { [i % 2 === 0 ? 'f_minutes' : 'f_minutes_b']: minutes(i, round) } }))
  const filters = [{ key: 'custom_minutes', byFieldId: new Map([['f_minutes', { gte: 10, lt: 30 }], ['f_minutes_b', { gte: 10, lt: 30 }]]) }]
  const expected = (live: Set<number>, round: number, category: string | null) =>
    [...live].filter((i) => i % 5 !== 0 && minutes(i, round) >= 10 && minutes(i, round) < 30 && (category === null || (i % 2 === 0 ? 'news' : 'blog') === category)).map((i) => `c${i}`).sort()
  const live = new Set<number>()
  for (let i = 0; i < 3000; i++) {
    put(i, 0)
    live.add(i)
  }
  for (const category of [null, 'news']) {
    const found = index.search(query({ filters, categoryId: category === null ? null : `news` }))
    assert.equal(found.hits.map((h) => h.id).sort(), expected(live, 0, category))
    assert.is(found.total, expected(live, 0, category).length)
  }
  // Change every item (new numbers), then remove most of them: more than a quarter dead compacts.
  for (let i = 0; i < 3000; i++) put(i, 1)
  for (let i = 0; i < 2500; i++) {
    index.remove(`c${i}`)
    live.delete(i)
  }
  for (let i = 3000; i < 3100; i++) {
    put(i, 1)
    live.add(i)
  }
  const found = index.search(query({ filters }))
  assert.equal(found.hits.map((h) => h.id).sort(), expected(live, 1, null))
  assert.is(found.total, expected(live, 1, null).length)
})

test('a word searched before finds the words the index learns afterwards (remembered expansions follow the vocabulary)', () => {
  const index = new TenantSearchIndex(categories)
  const ids = (text: string) => index.search(query({ terms: parseQueryTerms(text) })).hits.map((h) => h.id).sort()
  index.upsert(aContent('t1', 'c1', 'news', { title: 'alpha 東京' }))
  assert.equal(ids('alp'), ['c1'])
  assert.equal(ids('alphx'), ['c1'])
  assert.equal(ids('東'), ['c1'])
  index.upsert(aContent('t1', 'c2', 'news', { title: 'alpine alphy 東北' }))
  assert.equal(ids('alp'), ['c1', 'c2'])
  assert.equal(ids('alphx'), ['c1', 'c2'])
  assert.equal(ids('東'), ['c1', 'c2'])
})

test('remembered matches of a common word follow every change: items added, changed, removed, scores and totals', () => {
  const words = ['office', 'offices', 'officer']
  // Enough items that "off" (three words, one posting each per item) reads more than REMEMBER_TERM_FROM postings.
  const count = Math.ceil(REMEMBER_TERM_FROM / 2)
  const text = (i: number, round: number) => `${words[(i + round) % 3]} ${words[(i + round + 1) % 3]} ${i % 4 === 0 ? '東京' : '大阪'} ${'x'.repeat((i * 7 + round) % 5)}`
  // Every change, in order: a new index given the same ones has the same postings and weights, and nothing remembered.
  const changes: ((index: TenantSearchIndex) => void)[] = []
  const index = new TenantSearchIndex(categories)
  const change = (apply: (index: TenantSearchIndex) => void) => {
    changes.push(apply)
    apply(index)
  }
  const put = (i: number, round: number) => change((into) => into.upsert(aContent('t1', `c${i}`, i % 2 === 0 ? 'news' : 'blog', { title: text(i, round) })))
  const check = () => {
    const fresh = new TenantSearchIndex(categories)
    for (const apply of changes) apply(fresh)
    for (const [words, size] of [['off', 10], ['off', 10_000], ['off 東京', 10], ['offic 大阪', 25]] as const) {
      const q = query({ terms: parseQueryTerms(words), size })
      const got = index.search(q)
      assert.equal(got, fresh.search(q), words)
      assert.equal(index.search(q), got, `${words} again`)
    }
  }
  for (let i = 0; i < count; i++) put(i, 0)
  check()
  for (let i = 0; i < count; i += 3) put(i, 1)
  check()
  for (let i = 0; i < count; i += 5) change((into) => into.remove(`c${i}`))
  check()
  put(count, 2)
  check()
})

test('relevance ties come newest first (core\'s newestFirst: date, then id, descending), whatever order the items were indexed in (numbers stand in for ids only where they follow them)', () => {
  for (const memo of [true, false]) {
    const index = new TenantSearchIndex(categories, undefined, { memo })
    // Ids in increasing order first (numbers follow ids), then smaller ids and changed items (they do not); four dates, so that ties go by date, then id.
    const id = (i: number) => `c${String(i).padStart(4, '0')}`
    const published = new Map<string, string>()
    const put = (i: number, round: number) => {
      const item = aContent('t1', id(i), 'news', { title: i % 3 === round % 3 ? 'office office' : 'office', published_at: `2024-0${1 + ((i * 7 + round) % 4)}-01T00:00:00.000Z` })
      published.set(item.id, item.published_at ?? '')
      index.upsert(item)
    }
    for (let i = 100; i < 400; i++) put(i, 0)
    for (let i = 99; i >= 0; i--) put(i, 0)
    for (let i = 150; i < 400; i += 7) put(i, 1)
    for (let i = 0; i < 400; i += 11) index.remove(id(i))
    const all = index.search(query({})).hits
    const newest = (hit: { id: string }) => ({ id: hit.id, published_at: published.get(hit.id) ?? null })
    const expected = [...all].sort((a, b) => b.score - a.score || newestFirst(newest(a), newest(b)))
    assert.equal(all, expected, `memo ${memo}`)
    assert.ok(all.some((hit, i) => i > 0 && all[i - 1]?.score === hit.score && all[i - 1]?.id !== undefined), 'ties there are')
    for (const [from, size] of [[0, 1], [0, 20], [13, 20], [150, 40], [300, 100]] as const) {
      assert.equal(index.search(query({ from, size })).hits, expected.slice(from, from + size), `${from}+${size}, memo ${memo}`)
    }
  }
})

test('what a search may return follows the time asked for, either way, and categories switched off and on', () => {
  const index = new TenantSearchIndex(categories)
  index.upsert(aContent('t1', 'c1', 'news', { title: 'office', published_at: '2030-01-01T00:00:00.000Z' }))
  index.upsert(aContent('t1', 'c2', 'news', { title: 'office', published_at: '2030-06-01T00:00:00.000Z' }))
  index.upsert(aContent('t1', 'c3', 'blog', { title: 'office', published_at: '2030-03-01T00:00:00.000Z' }))
  const ids = (now: string, categoryId: string | null = null) => index.search(query({ now, categoryId })).hits.map((h) => h.id).sort()
  assert.equal(ids('2030-02-01T00:00:00.000Z'), ['c1'])
  assert.equal(ids('2030-05-01T00:00:00.000Z'), ['c1', 'c3'])
  assert.equal(ids('2030-07-01T00:00:00.000Z'), ['c1', 'c2', 'c3'])
  assert.equal(ids('2030-07-01T00:00:00.000Z', 'news'), ['c1', 'c2'])
  assert.equal(ids('2030-02-01T00:00:00.000Z'), ['c1'])
  const blog = categories[1]
  if (blog === undefined) throw new Error('no blog category')
  index.setCategory(blog.id, { ...blog, active: false })
  assert.equal(ids('2030-07-01T00:00:00.000Z'), ['c1', 'c2'])
  index.setCategory(blog.id, blog)
  assert.equal(ids('2030-07-01T00:00:00.000Z'), ['c1', 'c2', 'c3'])
})

test('a search asked again gets the same page until an item or category changes; its page is its own', () => {
  const index = new TenantSearchIndex(categories)
  for (let i = 0; i < 30; i++) index.upsert(aContent('t1', `c${String(i).padStart(2, '0')}`, 'news', { title: i % 3 === 0 ? 'office office' : 'office' }))
  const page = (from: number, size: number) => index.search(query({ from, size }))
  const first = page(0, 5)
  first.hits.pop()
  assert.throws(() => Object.assign(first.hits[0] ?? {}, { score: 0 }), 'a remembered hit cannot be changed through a page')
  assert.equal(page(0, 5), index.search(query({ from: 0, size: 5, now: '2031-01-01T00:00:00.000Z' })), 'a later time with the same items visible')
  assert.is(page(0, 5).hits.length, 5, 'changing a returned page changes nothing remembered')
  assert.equal(page(5, 5).hits.map((h) => h.id), page(0, 10).hits.slice(5).map((h) => h.id))
  index.upsert(aContent('t1', 'c99', 'news', { title: 'office office office office' }))
  assert.is(page(0, 5).total, 31)
  assert.ok(page(0, 40).hits.some((h) => h.id === 'c99'))
  index.remove('c99')
  assert.is(page(0, 5).total, 30)
  // More distinct searches than are remembered: the oldest are dropped and computed again, right.
  for (let i = 0; i <= MAX_REMEMBERED_SEARCHES; i++) index.search(query({ from: i, size: 1 }))
  assert.is(page(0, 5).total, 30)
  // Big pages too: more hits than are remembered in all.
  for (let i = 0; i * 30 <= MAX_REMEMBERED_HITS; i++) index.search(query({ size: 30 + i }))
  assert.equal(page(0, 30).hits.length, 30)
})


test('a filtered search asked after another with the same terms and fields but other values gets its own answer', () => {
  const events = aCategory('t1', 'events', {
    fields: [
      { id: 'f_capacity', name: 'capacity', type: 'number', required: false },
      { id: 'f_venue', name: 'venue_type', type: 'select', options: ['online', 'offline'], required: false },
    ],
  })
  const index = new TenantSearchIndex([events])
  const capacities = [50, 80, 100, 120, 300]
  capacities.forEach((capacity, i) =>
    index.upsert(aContent('t1', `e${i}`, 'events', { title: `event ${i}`, fields: { f_capacity: capacity, f_venue: i % 2 === 0 ? 'online' : 'offline' } })))
  const capacityOf = (filter: Record<string, unknown>) => {
    const filters = [{ key: 'custom_capacity', byFieldId: new Map([['f_capacity', filter]]) }]
    return index.search(query({ terms: parseQueryTerms('event'), size: 100, filters })).hits.map((h) => capacities[Number(h.id.slice(1))]).sort((a, b) => (a ?? 0) - (b ?? 0))
  }
  assert.equal(capacityOf({ in: [50, 300] }), [50, 300])
  assert.equal(capacityOf({ gte: 100, lte: 300 }), [100, 120, 300])
  assert.equal(capacityOf({ lt: 150 }), [50, 80, 100, 120])
  const venue = (value: string) =>
    index.search(query({ terms: parseQueryTerms('event'), size: 100, filters: [{ key: 'custom_venue_type', byFieldId: new Map([['f_venue', { eq: value }]]) }] })).hits.map((h) => h.id).sort()
  assert.equal(venue('online'), ['e0', 'e2', 'e4'])
  assert.equal(venue('offline'), ['e1', 'e3'])
})

test('a publication date becomes a number only where its order is the string order core sorts by', () => {
  const dates = ['2025-06-20T12:00:00.000Z', '2025-06-20T12:00:00.001Z', '1999-12-31T23:59:59.999Z', '0001-01-01T00:00:00.000Z']
  const sorted = [...dates].sort()
  assert.equal([...dates].sort((a, b) => publishedKey(a) - publishedKey(b)), sorted)
  assert.is(publishedKey(null), Number.NEGATIVE_INFINITY, 'no date sorts first, as the empty string')
  for (const odd of ['2025-06-20T12:00:00Z', '2025-06-20T14:00:00.000+02:00', '+275760-09-13T00:00:00.000Z', 'soon']) assert.ok(Number.isNaN(publishedKey(odd)), odd)
})

test('a publication date read digit by digit has the key parsing and printing it again gives', () => {
  const canonical = fc.date({ min: new Date(-62_198_755_200_000), max: new Date(253_402_300_799_999), noInvalidDate: true }).map((d) => d.toISOString())
  // Near misses: one character of a canonical date changed (a day past its month's end, a 24th hour, a letter).
  const nearMiss = fc.tuple(canonical, fc.nat(23), fc.constantFrom(...'0123456789:-.TZ+ x')).map(([text, at, char]) => `${text.slice(0, at)}${char}${text.slice(at + 1)}`)
  fc.assert(
    fc.property(fc.oneof(canonical, nearMiss, fc.string({ maxLength: 26 })), (text) => {
      assert.ok(Object.is(publishedKey(text), slowPublishedKey(text)), text)
    }),
    { numRuns: 3000 },
  )
  for (const text of ['2024-02-29T00:00:00.000Z', '2023-02-29T00:00:00.000Z', '1900-02-29T00:00:00.000Z', '2000-02-29T00:00:00.000Z', '2025-04-31T00:00:00.000Z', '0099-01-01T00:00:00.000Z', '0100-01-01T00:00:00.000Z', '2025-06-20T24:00:00.000Z']) {
    assert.ok(Object.is(publishedKey(text), slowPublishedKey(text)), text)
  }
})

test('a date of another form (none of core\'s) still sorts as core compares the strings', () => {
  const index = new TenantSearchIndex(categories)
  const dates = ['2025-06-20T12:00:00.000Z', '2025-06-20T11:00:00Z', '2025-06-20T11:30:00.000Z']
  dates.forEach((published_at, i) => index.upsert(aContent('t1', `c${i}`, 'news', { title: 'office', published_at })))
  const order = (direction: 'asc' | 'desc') => index.search(query({ now: '2026-01-01T00:00:00.000Z', sort: { kind: 'published_at', direction } })).hits.map((h) => h.id)
  assert.equal(order('asc'), ['c1', 'c2', 'c0'])
  assert.equal(order('desc'), ['c0', 'c2', 'c1'])
  index.remove('c1')
  assert.equal(order('desc'), ['c0', 'c2'], 'by the keys again once the odd date is gone')
})


test('items imported again keep their scores: a title match still ranks above a body-only one after every item was replaced', () => {
  const index = new TenantSearchIndex(categories)
  const put = () => {
    index.upsert(aContent('t1', 'title', 'news', { title: 'office hours', body: 'open daily' }))
    index.upsert(aContent('t1', 'body', 'news', { title: 'opening hours', body: 'the office is open daily' }))
    for (let i = 0; i < 4; i++) index.upsert(aContent('t1', `other${i}`, 'news', { title: `note ${i}`, body: 'nothing here' }))
  }
  for (let round = 0; round < 6; round++) {
    put()
    const found = index.search(query({}))
    assert.equal(found.hits.map((h) => h.id), ['title', 'body'], `round ${round}`)
    for (const hit of found.hits) assert.ok(hit.score > 0, `round ${round}: ${hit.id} scored ${hit.score}`)
    assert.ok(found.hits[0]!.score > found.hits[1]!.score, `round ${round}`)
  }
})

test('a delta\'s items upserted all at once make the index upserting them one by one makes: answers, scores and (without a compaction) every byte', () => {
  const words = ['office', 'harbour', 'light', 'keeper', '東京都', 'museum']
  const item = (i: number, round: number) =>
    aContent('t1', `c${i}`, i % 2 === 0 ? 'news' : 'blog', { title: `${words[i % 6] ?? ''} office ${round}`, summary: `${words[(i + round) % 6] ?? ''} ${i}`, body: `<p>${words[(i * 5 + round) % 6] ?? ''} text</p>` })
  for (const [size, replaced] of [[300, 120], [1600, 1500]] as const) {
    const base = new TenantSearchIndex(categories)
    for (let i = 0; i < size; i++) base.upsert(item(i, 0))
    // The replaced items with new texts, one named twice (the second wins, as one by one), and new ones.
    const changed = [...Array.from({ length: replaced }, (_, i) => item(i, 1)), item(0, 2), item(size, 1), item(size + 1, 1)]
    const writer = new AnalyzedDocsWriter()
    for (const record of changed) writer.add(searchedTexts(record.title, record.summary, record.body, [], record.fields, categories.find((c) => c.id === record.category_id)))
    const docs = writer.finish()
    const restored = () => {
      const file = decodeSnapshot(Buffer.concat(encodeSnapshot('0', base.toSnapshot())))
      if (file === null) throw new Error('the snapshot does not read back')
      return new TenantSearchIndex(categories, file.tenant)
    }
    const oneByOne = restored()
    const reader = new AnalyzedReader(docs)
    for (const record of changed) oneByOne.upsertAnalyzed(searchDocumentOf(record), reader)
    // In two runs, each naming an id once; and the whole list at once (naming one twice, so taken one by one).
    const allAtOnce = restored()
    const inRuns = restored()
    const runReader = new AnalyzedReader(docs)
    inRuns.upsertAnalyzedAll(changed.slice(0, replaced).map(searchDocumentOf), runReader)
    inRuns.upsertAnalyzedAll(changed.slice(replaced).map(searchDocumentOf), runReader)
    allAtOnce.upsertAnalyzedAll(changed.map(searchDocumentOf), new AnalyzedReader(docs))
    for (const index of [inRuns, allAtOnce]) {
      for (const text of [...words, 'office 1', 'text', '0']) {
        const q = query({ terms: parseQueryTerms(text), size: 50 })
        assert.equal(index.search(q), oneByOne.search(q), text)
      }
    }
    // Without a compaction (300 items) the very same index; 1,500 replaced of 1,600 compact it (numbers differ, answers not).
    if (size === 300) assert.is(Buffer.concat(encodeSnapshot('0', inRuns.toSnapshot())).toString('base64'), Buffer.concat(encodeSnapshot('0', oneByOne.toSnapshot())).toString('base64'))
  }
})

test.run()

import type { CategoryRecord, ContentRecord, FieldCondition, FieldDefinition, FieldOperators, FieldValue, QueryTerm, SearchQuery, SearchResult, SearchSort } from '@frontdesk/core'
import { isPubliclyVisible, matchesNarrowing, newestFirst, parseQueryTerms, searchComparator, searchedTexts, tokenize, wordMatches } from '@frontdesk/core'
import { aCategory, aContent } from '@frontdesk/core/testing'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { REMEMBER_TERM_FROM } from '../matching/term-matcher.ts'
import { decodeSnapshot, encodeSnapshot } from '../snapshots/snapshot-codec.ts'
import { TenantSearchIndex } from './tenant-index.ts'

/*
 * Every memo of a tenant index (recent searches' pages, eligibility bit sets, term expansions,
 * merged term matches, field columns) against the index without them and against a brute-force
 * reference over core's rules, along random sequences of changes and searches: items written,
 * rewritten and removed (many at once too, so that common words pass REMEMBER_TERM_FROM and
 * the index compacts), categories switched off and on and their searched fields changed, time
 * going forwards and backwards, the same search (or its terms) asked again, and restarts: an
 * index replaced by the one its snapshot restores (its items then read from the snapshot's
 * columns and bytes, see `DocTable`), the other one or both kept. Every answer is compared in
 * full. `FRONTDESK_FUZZ_RUNS` runs more sequences (default 40, seeded).
 */

const RUNS = Number(process.env['FRONTDESK_FUZZ_RUNS'] ?? 40)
const BASE = Date.parse('2025-06-20T12:00:00.000Z')
const HOUR = 3_600_000
const moment = (k: number) => new Date(BASE + k * HOUR).toISOString()
const WORDS = ['office', 'offices', 'officer', 'alpha', 'alpine', 'beta', '東京都', '京都', 'オフィス移転', 'お知らせ']
const QUERIES = ['off', 'off', 'alp', 'office', 'ofice', 'officer', 'alp', 'alpha beta', 'beta', '京都', '東京', '移転', 'お知らせ', '京', 'x', 'zeta', 'note', 'office 京都', 'off beta', 'beta off', 'お知らせ alp', '京都 off']
const CATEGORY_IDS = ['news', 'blog', 'shop'] as const
const TAGS = ['x', 'y', 'z'] as const
const T = 't1'
/** Items are numbered below this; a sequence starts with half of them. */
const POOL = 400

const FIELDS: Record<'price' | 'kind' | 'day' | 'note', FieldDefinition> = {
  price: { id: 'f_price', name: 'price', type: 'number', required: false },
  kind: { id: 'f_kind', name: 'kind', type: 'select', options: ['a', 'b'], required: false },
  day: { id: 'f_day', name: 'day', type: 'date', required: false },
  note: { id: 'f_note', name: 'note', type: 'text', required: false },
}

function categoryOf(id: (typeof CATEGORY_IDS)[number], active: boolean, noteSearched: boolean): CategoryRecord {
  if (id === 'shop') return aCategory(T, id, { active, fields: [FIELDS.price, FIELDS.kind, FIELDS.day] })
  if (id === 'blog') return aCategory(T, id, { active, fields: [FIELDS.kind] })
  // Hint: the note field switches between searched (text) and not (number), which changes what the items' text holds.
  return aCategory(T, id, { active, fields: [noteSearched ? FIELDS.note : { ...FIELDS.note, type: 'number' }] })
}

/** A deterministic item of the pool, in one of a few versions. */
function itemOf(n: number, version: number): ContentRecord {
  const r = (k: number) => (Math.imul(n * 31 + version * 17 + k, 2654435761) >>> 0) % 1000
  const words = (count: number, k: number) => Array.from({ length: count }, (_, i) => WORDS[r(k + i) % WORDS.length]).join(' ')
  const category = CATEGORY_IDS[r(1) % 3] ?? 'news'
  const fields: Record<string, FieldValue> = {}
  if (category === 'shop') {
    if (r(2) % 4 !== 0) fields['f_price'] = r(3) % 6
    if (r(4) % 3 !== 0) fields['f_kind'] = r(5) % 2 === 0 ? 'a' : 'b'
    if (r(6) % 3 !== 0) fields['f_day'] = `2025-01-0${1 + (r(7) % 5)}`
  } else if (category === 'blog') {
    if (r(4) % 2 === 0) fields['f_kind'] = r(5) % 2 === 0 ? 'a' : 'b'
  } else if (r(8) % 2 === 0) fields['f_note'] = `note ${words(1, 9)}`
  return aContent(T, `c${String(n).padStart(3, '0')}`, category, {
    // Hint: now and then a word the vocabulary may not hold yet, so that remembered expansions of `off` and `alp` go stale.
    title: `${words(1 + (r(10) % 3), 11)}${r(21) % 2 === 0 ? ` off${n}v${version} alp${n}v${version}` : ''}`,
    summary: r(12) % 3 === 0 ? '' : words(r(13) % 3, 14),
    body: `<p>${words(3 + (r(15) % 5), 16)}</p>`,
    status: r(17) % 5 === 0 ? 'draft' : 'published',
    published_at: r(18) % 9 === 0 ? null : moment((r(19) % 7) - 3),
    tags: TAGS.filter((_, i) => r(20 + i) % 3 === 0).map((name) => ({ id: `tag_${name}`, name })),
    fields,
  })
}

type Op =
  | { kind: 'put'; n: number; version: number }
  | { kind: 'bulk'; from: number; count: number; version: number }
  | { kind: 'remove'; n: number }
  | { kind: 'removeMany'; from: number; count: number }
  | { kind: 'category'; id: (typeof CATEGORY_IDS)[number]; active: boolean; noteSearched: boolean }
  | { kind: 'search'; query: SearchQuery }
  /** The last search again, as it was. */
  | { kind: 'again' }
  /** The last search's terms with other filters, order, page or time. */
  | { kind: 'related'; query: SearchQuery }
  /** The index with memos, the one without or both replaced by what their snapshots restore. */
  | { kind: 'restart'; memo: boolean; plain: boolean }

const operators = (values: readonly FieldValue[]): fc.Arbitrary<FieldOperators> =>
  fc.oneof(
    fc.constantFrom(...values).map((eq) => ({ eq })),
    fc.subarray([...values], { minLength: 1 }).map((list) => ({ in: list })),
    fc.record({ gte: fc.constantFrom(...values), lt: fc.constantFrom(...values) }),
    fc.constantFrom(...values).map((gt) => ({ gt })),
    fc.constantFrom(...values).map((lte) => ({ lte })),
  )
const filter: fc.Arbitrary<FieldCondition> = fc.oneof(
  operators([0, 1, 2, 3, 4, 5]).map((ops) => ({ key: 'custom_price', byFieldId: new Map([['f_price', ops]]) })),
  operators(['a', 'b']).map((ops) => ({ key: 'custom_kind', byFieldId: new Map([['f_kind', ops]]) })),
  operators(['2025-01-01', '2025-01-03', '2025-01-05']).map((ops) => ({ key: 'custom_day', byFieldId: new Map([['f_day', ops]]) })),
  operators(['a', 'b', 1, 3]).map((ops) => ({ key: 'custom_any', byFieldId: new Map<string, FieldOperators>([['f_kind', ops], ['f_price', ops]]) })),
)
const sort: fc.Arbitrary<SearchSort> = fc.constantFrom<SearchSort>(
  { kind: 'relevance' },
  { kind: 'relevance' },
  { kind: 'published_at', direction: 'asc' },
  { kind: 'published_at', direction: 'desc' },
  { kind: 'field', fieldIds: ['f_price'], direction: 'asc' },
  { kind: 'field', fieldIds: ['f_kind'], direction: 'desc' },
  // Hint: shop items hold both: one column over two fields (its items holding several).
  { kind: 'field', fieldIds: ['f_price', 'f_kind'], direction: 'asc' },
)
const query: fc.Arbitrary<SearchQuery> = fc.record({
  terms: fc.constantFrom(...QUERIES).map(parseQueryTerms),
  now: fc.integer({ min: -4, max: 4 }).map(moment),
  categoryId: fc.constantFrom<string | null>(null, null, 'news', 'blog', 'shop'),
  tags: fc.constantFrom<string[] | null>(null, null, ['x'], ['y', 'z']),
  filters: fc.oneof(fc.constant<FieldCondition[]>([]), fc.constant<FieldCondition[]>([]), fc.array(filter, { minLength: 1, maxLength: 2 })),
  sort,
  from: fc.constantFrom(0, 0, 1, 3),
  size: fc.constantFrom(1, 5, 20, 500),
})
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('put' as const), n: fc.nat(POOL - 1), version: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bulk' as const), from: fc.nat(POOL / 2), count: fc.integer({ min: 20, max: POOL / 2 }), version: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), n: fc.nat(POOL - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeMany' as const), from: fc.nat(POOL / 2), count: fc.integer({ min: 10, max: POOL / 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('category' as const), id: fc.constantFrom(...CATEGORY_IDS), active: fc.boolean(), noteSearched: fc.boolean() }) },
  { weight: 6, arbitrary: query.map((q) => ({ kind: 'search' as const, query: q })) },
  { weight: 3, arbitrary: fc.constant({ kind: 'again' as const }) },
  { weight: 4, arbitrary: query.map((q) => ({ kind: 'related' as const, query: q })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restart' as const), memo: fc.boolean(), plain: fc.boolean() }) },
)

/** What `index`'s snapshot restores, through the bytes of the file. */
function restarted(index: TenantSearchIndex, categories: Map<string, CategoryRecord>, memo: boolean): TenantSearchIndex {
  const decoded = decodeSnapshot(new Uint8Array(Buffer.concat(encodeSnapshot('1', index.toSnapshot()))))
  if (decoded === null) throw new Error('the snapshot did not decode')
  return new TenantSearchIndex([...categories.values()], decoded.tenant, { memo })
}

/** CONTRACT §5 term semantics by brute force, over the item's searched texts (core's `searchedTexts`): how many of the terms the item matches. */
function termsMatch(record: ContentRecord, category: CategoryRecord | undefined, terms: readonly QueryTerm[]): number {
  const texts = searchedTexts(record.title, record.summary, record.body, record.tags.map((tag) => tag.name), record.fields, category)
  const tokens = texts.flatMap((text) => tokenize(text))
  return terms.filter((term) =>
    term.kind === 'word'
      ? tokens.some((token) => !token.cjk && wordMatches(term, token.term))
      : term.grams.every((gram) => tokens.some((token) => token.cjk && (term.prefix ? token.term.startsWith(gram) : token.term === gram))),
  ).length
}

/** What the search must answer, brute force over the live items and core's rules (relevance order aside: no scores here). */
function reference(items: Map<string, ContentRecord>, indexedWith: Map<string, CategoryRecord | undefined>, categories: Map<string, CategoryRecord>, q: SearchQuery): ContentRecord[] {
  const candidates = [...items.values()].filter((record) => {
    const doc = { ...record, tags: record.tags.map((tag) => tag.name) }
    return isPubliclyVisible(record, categories.get(record.category_id) ?? null, Date.parse(q.now)) && matchesNarrowing(doc, q)
  })
  // The items having every term, or when none does, those having the most (no dead ends).
  const counts = candidates.map((record) => termsMatch(record, indexedWith.get(record.id), q.terms))
  const best = Math.max(0, ...counts)
  return best === 0 ? [] : candidates.filter((_, i) => counts[i] === best)
}

function check(result: SearchResult, plain: SearchResult, expected: ContentRecord[], q: SearchQuery, where: string): void {
  assert.equal(result, plain, `memo on = memo off: ${where}`)
  assert.is(result.total, expected.length, `total: ${where}`)
  const ids = new Set(expected.map((record) => record.id))
  assert.ok(result.hits.every((hit) => ids.has(hit.id)), `only matching, visible items: ${where}`)
  if (q.sort.kind === 'relevance') {
    const byId = new Map(expected.map((record) => [record.id, record]))
    for (let i = 1; i < result.hits.length; i++) {
      const a = result.hits[i - 1]
      const b = result.hits[i]
      const x = a === undefined ? undefined : byId.get(a.id)
      const y = b === undefined ? undefined : byId.get(b.id)
      if (a !== undefined && b !== undefined && x !== undefined && y !== undefined) assert.ok(b.score < a.score || (b.score === a.score && newestFirst(x, y) < 0), `relevance order: ${where}`)
    }
    assert.is(result.hits.length, Math.max(0, Math.min(q.size, expected.length - q.from)), `page size: ${where}`)
  } else {
    const compare = searchComparator(q.sort)
    const ordered = expected
      .map((record) => ({ doc: { ...record, tags: record.tags.map((tag) => tag.name) }, score: 0 }))
      .sort(compare)
      .slice(q.from, q.from + q.size)
      .map((hit) => hit.doc.id)
    assert.equal(result.hits.map((hit) => hit.id), ordered, `page in ${q.sort.kind} order: ${where}`)
  }
}

test('over random sequences of changes, searches and restarts from snapshots, every answer with memos equals the answer without them and core\'s rules', () => {
  fc.assert(
    fc.property(fc.nat(3), fc.array(op, { minLength: 5, maxLength: 40 }), (version, ops) => {
      const categories = new Map(CATEGORY_IDS.map((id) => [id as string, categoryOf(id, true, true)]))
      let memo = new TenantSearchIndex([...categories.values()])
      let plain = new TenantSearchIndex([...categories.values()], undefined, { memo: false })
      const items = new Map<string, ContentRecord>()
      // The category each item was indexed with (its searched custom text follows it).
      const indexedWith = new Map<string, CategoryRecord | undefined>()
      const put = (record: ContentRecord) => {
        items.set(record.id, record)
        indexedWith.set(record.id, categories.get(record.category_id))
        memo.upsert(record)
        plain.upsert(record)
      }
      const remove = (id: string) => {
        items.delete(id)
        indexedWith.delete(id)
        memo.remove(id)
        plain.remove(id)
      }
      let last: SearchQuery | null = null
      for (let n = 0; n < POOL / 2; n++) put(itemOf(n, version))
      ops.forEach((o, step) => {
        if (o.kind === 'put') put(itemOf(o.n, o.version))
        else if (o.kind === 'bulk') for (let n = o.from; n < o.from + o.count; n++) put(itemOf(n, o.version))
        else if (o.kind === 'remove') remove(itemOf(o.n, 0).id)
        else if (o.kind === 'removeMany') for (let n = o.from; n < o.from + o.count; n++) remove(itemOf(n, 0).id)
        else if (o.kind === 'restart') {
          // Hint: a snapshot is taken of both (it compacts the index, which the other must do too for equal scores).
          const memoAgain = restarted(memo, categories, true)
          const plainAgain = restarted(plain, categories, false)
          if (o.memo) memo = memoAgain
          if (o.plain) plain = plainAgain
        } else if (o.kind === 'category') {
          const before = categories.get(o.id)
          const after = categoryOf(o.id, o.active, o.noteSearched)
          categories.set(o.id, after)
          memo.setCategory(o.id, after)
          plain.setCategory(o.id, after)
          // As the engine applies a category change: its items are indexed again when its fields changed.
          if (JSON.stringify(before?.fields) !== JSON.stringify(after.fields)) {
            for (const record of [...items.values()]) if (record.category_id === o.id) put(record)
          }
        } else {
          const q = o.kind === 'again' ? last : o.kind === 'related' ? (last === null ? null : { ...o.query, terms: last.terms }) : o.query
          if (q === null) return
          last = q
          check(memo.search(q), plain.search(q), reference(items, indexedWith, categories, q), q, `step ${step}, ${JSON.stringify({ ...q, filters: q.filters.map((f) => [...f.byFieldId]) })}`)
        }
      })
    }),
    { numRuns: RUNS, seed: 16 },
  )
})

test('the sequences reach the memos they are meant to test: common words past REMEMBER_TERM_FROM from the start', () => {
  const texts = Array.from({ length: POOL / 2 }, (_, n) => itemOf(n, 0)).map((record) => `${record.title} ${record.summary} ${record.body}`)
  const holding = (words: string[]) => texts.filter((text) => words.some((word) => text.includes(word))).length
  assert.ok(holding(['office', 'offices', 'officer']) >= REMEMBER_TERM_FROM / 2, 'items holding an "off" word')
  assert.ok(3 * holding(['お知らせ']) >= REMEMBER_TERM_FROM, 'postings of the three bigrams of お知らせ')
})

test.run()

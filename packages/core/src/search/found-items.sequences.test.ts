import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import { aCategory, aContent } from '../testing/fixtures.ts'
import { fuzzOptions } from '../testing/fuzz-options.ts'
import { FoundItems } from './found-items.ts'
import { termsKey } from './highlight-memo.ts'
import { parseQueryTerms } from './query-terms.ts'
import { prepareResult } from './result-json.ts'
import { resultItem } from './search-contents.ts'

/*
 * What search keeps of the items it found — their records by revision, their texts prepared
 * once and kept while the same strings come back (`FoundItems`), each one's highlights for its
 * last queries (`HighlightMemo`) and its results with their JSON (`ResultMemo`) — against the
 * result built afresh from the record, over random sequences of items read again (changed or
 * not, at another revision), categories changing and queries asked again. Every result is
 * compared whole, with its bytes.
 */

const { runs, seed } = fuzzOptions(200)
const WORDS = ['office', 'offices', 'officer', 'harbour', 'light', 'lighthouse', '東京都', 'オフィス移転', 'お知らせ', 'café', '<b>bold</b>', '&amp;', 'e-mail']
// Hint: queries sharing words (and first words), so that a key that drops a term or a flag shows.
const QUERIES = ['off', 'office', 'ofice', 'harbour', 'harbour light', 'light', 'light harbour', '東京', '東京 移転', '移転', 'お知らせ', 'cafe', 'mail', 'bold', 'zeta', 'officer harbour', 'office light']

const text = (max: number) => fc.array(fc.constantFrom(...WORDS), { maxLength: max }).map((words) => words.join(' '))

type Step =
  /** An item read (again): every text new, none, or one of them (the others come back as the same strings in other objects). */
  | { kind: 'read'; n: number; title: string; summary: string; body: string; change: 'none' | 'all' | 'title' | 'summary' | 'body'; fields: boolean }
  | { kind: 'category'; shown: boolean }
  | { kind: 'find'; n: number; query: string; score: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), n: fc.nat(3), title: text(3), summary: text(5), body: text(12).map((t) => `<p>${t}</p>`), change: fc.constantFrom<'none' | 'all' | 'title' | 'summary' | 'body'>('none', 'all', 'all', 'title', 'summary', 'body'), fields: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('category' as const), shown: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('find' as const), n: fc.nat(3), query: fc.constantFrom(...QUERIES), score: fc.constantFrom(1, 1.23456, 2.5) }) },
)

const NOTE = { id: 'f_note', name: 'note', type: 'text', required: false } as const

/** Items found again (from `FoundItems`, not read afresh), over every run. */
let foundAgain = 0

test(`items found again give the results built afresh, highlights and bytes alike (${runs} runs, seed ${seed})`, () => {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 40, size: 'max' }), (steps) => {
      const found = new FoundItems(60_000)
      const records = new Map<number, ContentRecord>()
      let category: CategoryRecord = aCategory('t1', 'cat', { fields: [NOTE] })
      let revision = 0
      for (const [i, s] of steps.entries()) {
        if (s.kind === 'category') {
          category = aCategory('t1', 'cat', { fields: s.shown ? [NOTE] : [{ ...NOTE, name: 'memo' }] })
          revision++
          continue
        }
        if (s.kind === 'read') {
          const before = records.get(s.n)
          // Kept texts come back as other string objects (as a store reads them back); the others are new.
          const keeps = (part: 'title' | 'summary' | 'body') => before !== undefined && s.change !== 'all' && s.change !== part
          const texts = {
            title: keeps('title') ? `${before?.title ?? ''} `.trimEnd() : s.title,
            summary: keeps('summary') ? `${before?.summary ?? ''} `.trimEnd() : s.summary,
            body: keeps('body') ? `${before?.body ?? ''} `.trimEnd() : s.body,
          }
          records.set(s.n, aContent('t1', `c${s.n}`, 'cat', { ...texts, fields: s.fields ? { f_note: 'note office' } : {} }))
          revision++
          continue
        }
        const record = records.get(s.n)
        if (record === undefined) continue
        const terms = parseQueryTerms(s.query)
        const known = found.get('t1', record.id, revision)
        if (known !== undefined) foundAgain++
        const item = known ?? found.put(record, revision)
        const kept = item.results.get(termsKey(terms), category, () => resultItem(item.record, category, s.score, terms, item.source))
        const fresh = prepareResult(category, resultItem(record, category, s.score, terms))
        const where = `step ${i}: ${record.id} for "${s.query}"`
        // Hint: as `searchContents` does, a remembered item takes this search's score (the bytes hold none).
        assert.equal({ ...kept.item, score: fresh.item.score }, fresh.item, where)
        assert.is(kept.head + kept.tail, fresh.head + fresh.tail, `JSON of ${where}`)
      }
    }),
    { numRuns: runs, seed },
  )
})

test('the sequences reach items found again', () => {
  // Hint: about one run in two finds an item again; proportional, so that fewer runs (`FRONTDESK_FUZZ_RUNS`) pass too.
  assert.ok(foundAgain > runs / 2, `${foundAgain} found again in ${runs} runs`)
})
test.run()

import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { kindCounts, MATCH_KIND, MATCH_KINDS, matchRank, rankScale, termRank } from './match-rank.ts'
import { MATCH_WEIGHTS, parseQueryTerms, wordMatches, wordMatchKind, wordMatchWeight } from './query-terms.ts'

/** A query's matched words: each a kind code and a relevance (any size, as an engine's BM25+ may be). */
const matchedWords = (n: number) =>
  fc.array(fc.record({ kind: fc.integer({ min: 0, max: MATCH_KINDS.length - 1 }), relevance: fc.double({ min: 0, max: 1e6, noNaN: true }) }), { minLength: 1, maxLength: n })

/** Each kind's count among `words`, by code. */
function counts(words: readonly { kind: number }[]): number[] {
  return MATCH_KINDS.map((_, code) => words.filter((word) => word.kind === code).length)
}

/** Lexicographic, more first: the order core's rule names. */
function compareCounts(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (b[i] ?? 0) - (a[i] ?? 0)
  return 0
}

test('rank scores order items by their kinds of match, kind by kind, whatever their relevance, and count them exactly', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(fc.constant(n), matchedWords(n), matchedWords(n))),
      ([n, a, b]) => {
      // Items compared are those matching the most words: as many on both sides.
      const m = Math.min(a.length, b.length)
      const x = a.slice(0, m)
      const y = b.slice(0, m)
      const scale = rankScale(n)
      const score = (words: typeof x) => words.reduce((sum, word) => sum + termRank(scale, word.kind, word.relevance), 0)
      assert.equal(kindCounts(score(x), n), counts(x))
      const order = compareCounts(counts(x), counts(y))
      if (order !== 0) assert.is(Math.sign(score(y) - score(x)), Math.sign(order), `${JSON.stringify(x)} against ${JSON.stringify(y)}`)
      else assert.is(matchRank(score(x)), matchRank(score(y)))
      },
    ),
    { numRuns: 500 },
  )
})

test('within the same kinds, more relevance ranks higher', () => {
  const scale = rankScale(3)
  assert.ok(termRank(scale, MATCH_KIND.typo, 5) + termRank(scale, MATCH_KIND.exact, 1) < termRank(scale, MATCH_KIND.typo, 5) + termRank(scale, MATCH_KIND.exact, 2))
  assert.ok(termRank(scale, MATCH_KIND.exact, 0) > termRank(scale, MATCH_KIND.synonym, 1e9) + termRank(scale, MATCH_KIND.synonym, 1e9) - termRank(scale, MATCH_KIND.synonym, 0))
})

test('a word\'s kind of match is the best one that holds, in the order of the weights, and only where it matches', () => {
  const letter = fc.constantFrom('l', 'e', 'a', 'r', 'n', 'i', 'g', 'd', 's')
  const word = fc.array(letter, { minLength: 1, maxLength: 10 }).map((chars) => chars.join(''))
  const weightOf: Record<number, (weight: number) => boolean> = {
    [MATCH_KIND.exact]: (w) => w === MATCH_WEIGHTS.exact,
    [MATCH_KIND.stem]: (w) => w === MATCH_WEIGHTS.stem,
    [MATCH_KIND.typo]: (w) => w === MATCH_WEIGHTS.typo,
    [MATCH_KIND.prefix]: (w) => w > 0 && w < MATCH_WEIGHTS.typo,
  }
  fc.assert(
    fc.property(fc.constantFrom('learning', 'learned', 'reading', 'lean', 'sing', 'e-learning', 'ear'), word, (query, indexTerm) => {
      for (const term of parseQueryTerms(query)) {
        if (term.kind !== 'word') continue
        const kind = wordMatchKind(term, indexTerm)
        assert.is(kind !== null, wordMatches(term, indexTerm), `${query} / ${indexTerm}`)
        if (kind !== null) assert.ok(weightOf[kind]?.(wordMatchWeight(term, indexTerm)), `${query} / ${indexTerm}: kind ${MATCH_KINDS[kind]}, weight ${wordMatchWeight(term, indexTerm)}`)
      }
    }),
    { numRuns: 2000 },
  )
  const [learning] = parseQueryTerms('learning')
  if (learning?.kind !== 'word') throw new Error('a word')
  assert.is(wordMatchKind(learning, 'learning'), MATCH_KIND.exact)
  assert.is(wordMatchKind(learning, 'learned'), MATCH_KIND.stem)
  assert.is(wordMatchKind(learning, 'lerning'), MATCH_KIND.typo)
  assert.is(wordMatchKind(learning, 'learningxyz'), MATCH_KIND.prefix)
  assert.is(wordMatchKind(learning, 'reading'), null)
})

test.run()

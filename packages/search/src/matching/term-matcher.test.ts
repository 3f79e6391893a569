import type { QueryTerm } from '@frontdesk/core'
import { indexTerms, parseQueryTerms, wordMatches } from '@frontdesk/core'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { InvertedIndex } from './inverted-index.ts'
import type { Eligibility, TermMatches } from './term-matcher.ts'
import { REMEMBER_TERM_FROM, TermMatcher } from './term-matcher.ts'

/*
 * The matcher's conjunction (a driving term, the others probed by walking or leaping through
 * their postings, merged lists remembered or not) against brute force over the same texts,
 * and against itself without memos and in other states: every query asked cold, again, and
 * after others, with all of its matches and with only the top ones handed over.
 */

// Words of very different frequencies, so that some lists are many times longer than the candidates (leaps).
const WORDS = ['common', 'common', 'common', 'often', 'often', 'office', 'offices', 'officer', 'off', 'alpha', 'alpine', '東京都', '京都']
const QUERIES = ['common', 'common often', 'often common', 'off', 'off common', 'common off', 'office', 'offce rare', 'rare common often', '京都', '京都 common', 'common 京都 off', 'alp', 'alp off', 'zzz common', '京', 'off rare', 'rare off', 'rare 京都']

function textOf(n: number, seed: number): string {
  const pick = (k: number) => WORDS[(Math.imul(n * 7 + k, 2654435761 + seed) >>> 0) % WORDS.length] ?? ''
  // Hint: `rare` in one item of 40: the lists it meets are many times longer than its candidates;
  // `offbeat` in one of 50: an alternative of `off` many times shorter than the candidates of `common`.
  const words = [pick(1), pick(2), n % 40 === 0 ? 'rare' : pick(3), n % 50 === 7 ? 'offbeat' : '']
  return words.join(' ')
}

/** Brute force: the documents every term matches by core's rules (prefix, typo, CJK grams). */
function expected(texts: string[], terms: readonly QueryTerm[], eligible: (doc: number) => boolean): number[] {
  return texts.flatMap((text, doc) => {
    if (!eligible(doc)) return []
    const analysed = indexTerms(text)
    const matches = terms.every((term) =>
      term.kind === 'word' ? analysed.some((t) => wordMatches(term, t)) : term.grams.every((gram) => analysed.some((t) => (term.prefix ? t.startsWith(gram) : t === gram))),
    )
    return matches ? [doc] : []
  })
}

function byDoc(matches: TermMatches): Map<number, number> {
  return new Map(Array.from(matches.docs.subarray(0, matches.length), (doc, i) => [doc, matches.scores[i] ?? 0]))
}

test('the matches and scores are brute force\'s and the same whichever way the matcher gets them', () => {
  fc.assert(
    fc.property(fc.integer({ min: 50, max: 3 * REMEMBER_TERM_FROM }), fc.nat(1000), fc.array(fc.constantFrom(...QUERIES), { minLength: 1, maxLength: 12 }), fc.constantFrom(0, 1, 5, 20), (count, seed, queries, top) => {
      const texts = Array.from({ length: count }, (_, n) => textOf(n, seed))
      const index = new InvertedIndex()
      texts.forEach((text, doc) => index.addDocument(doc, [text, '', '', '', '']))
      const bits = new Uint32Array((count + 31) >>> 5)
      for (let doc = 0; doc < count; doc++) if ((doc * 13 + seed) % 5 !== 0) bits[doc >>> 5] = (bits[doc >>> 5] ?? 0) | (1 << (doc & 31))
      const eligible: Eligibility = { bits, filter: null }
      const isEligible = (doc: number) => (((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 1
      const memo = new TermMatcher(index, true)
      const plain = new TermMatcher(index, false)
      for (const text of [...queries, ...queries]) {
        const terms = parseQueryTerms(text)
        const all = byDoc(plain.match(terms, count, count, eligible, 1, 0))
        assert.equal([...all.keys()].sort((a, b) => a - b), expected(texts, terms, isEligible), `matches of ${text}`)
        const remembered = memo.match(terms, count, count, eligible, 1, top)
        assert.is(remembered.total, all.size, `total of ${text}`)
        const got = byDoc(remembered)
        for (const [doc, score] of got) assert.is(score, all.get(doc), `score of ${doc} for ${text}`)
        if (top > 0) {
          // Every match scoring at least the k-th best is handed over, and the floor is that score.
          const kth = [...all.values()].sort((a, b) => b - a)[top - 1] ?? Number.NEGATIVE_INFINITY
          for (const [doc, score] of all) if (score >= kth) assert.ok(got.has(doc), `${doc} (${score}) of the top ${top} of ${text}`)
          assert.is(remembered.floor, kth, `the floor of ${text}`)
        } else assert.is(got.size, all.size)
      }
    }),
    { numRuns: 60 },
  )
})

test.run()

import { parseQuery, SHORT_PREFIX_WORDS } from '@frontdesk/core'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { InvertedIndex } from './inverted-index.ts'
import { TermExpansions } from './term-expansions.ts'

/*
 * The work of a one-character query word is bounded by the words it expands to, whatever the
 * vocabulary: counted here (alternatives and their postings), not timed.
 */

const WORDS = 600
const DOCS = 2000

/** An index that counts the vocabulary entries its prefix walks meet. */
class WalkCountingIndex extends InvertedIndex {
  walked = 0

  override prefixEntries(prefix: string, cjk: boolean): Iterable<[term: string, id: number]> {
    const entries = super.prefixEntries(prefix, cjk)
    const count = () => this.walked++
    return (function* () {
      for (const entry of entries) {
        count()
        yield entry
      }
    })()
  }
}

/** 600 words beginning with `s` (and 600 bigrams with `の`, 600 with `日`), word w in about DOCS / (w + 1) documents. */
function vocabularyIndex(): WalkCountingIndex {
  const index = new WalkCountingIndex()
  const word = (w: number) => `s${w.toString(36)}x`
  const kana = (w: number) => `の${String.fromCharCode(0x4e00 + w)}`
  const kanji = (w: number) => `日${String.fromCharCode(0x4e00 + w)}`
  for (let doc = 0; doc < DOCS; doc++) {
    const held: string[] = []
    for (let w = 0; w < WORDS; w++) if (doc % (w + 1) === 0) held.push(word(w), kana(w), kanji(w))
    index.addDocument(doc, [held.join(' '), '', '', '', ''])
  }
  return index
}

test('a one-character word reads the postings of at most SHORT_PREFIX_WORDS longer words and itself (a kanji: every bigram it begins); after MAX_SHORT_PREFIXES of them, of itself only', () => {
  const index = vocabularyIndex()
  const expansions = new TermExpansions(index, true)
  const read = (query: string) =>
    parseQuery(query).terms.map((term) => {
      const alternatives = expansions.groupsOf(term).flat()
      return [alternatives.length, alternatives.reduce((n, alt) => n + index.postings(alt.id).length, 0)]
    })
  const all = index.withPrefix('s', false)
  assert.ok(all.length >= WORDS, `${all.length} words begin with s`)
  for (const [alternatives, postings] of read('s の')) {
    assert.ok((alternatives ?? 0) <= SHORT_PREFIX_WORDS + 1, `${alternatives} alternatives`)
    assert.ok((postings ?? 0) <= (SHORT_PREFIX_WORDS + 1) * DOCS, `${postings} postings`)
  }
  assert.equal(read('日')[0]?.[0], WORDS, 'a kanji is a word of its own: every bigram it begins')
  assert.equal(read('s 日 月')[2], [0, 0], 'but as the third one-character word, itself only')
  // The third and later: the word alone (no document holds `t` or `x` alone: nothing to read).
  assert.equal(read('s 日 t x 月').slice(2), [[0, 0], [0, 0], [0, 0]])
  assert.equal(read('t x s').slice(2), [[0, 0]])
  // And finds itself without walking the words it begins (600 here, tens of thousands under a letter of a real vocabulary).
  const fresh = new TermExpansions(index, true)
  index.walked = 0
  for (const term of parseQuery('t x s 日').terms.slice(2)) fresh.groupsOf(term)
  assert.is(index.walked, 0, 'vocabulary entries walked for the third and fourth one-character words')
  // Quoted, a word is found wherever it stands: every word it begins, as the query's term; as the phrase's, itself only.
  const quoted = parseQuery('"s"')
  assert.is(expansions.groupsOf(quoted.terms[0] ?? { kind: 'cjk', text: '', grams: [], prefix: false }).flat().length, all.length)
  assert.is(expansions.groupsOf(quoted.phrases[0]?.terms[0] ?? { kind: 'cjk', text: '', grams: [], prefix: false }).flat().length, 0)
})

test.run()

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

/** 600 words beginning with `s` (and 600 bigrams with `日`), word w in about DOCS / (w + 1) documents. */
function vocabularyIndex(): InvertedIndex {
  const index = new InvertedIndex()
  const word = (w: number) => `s${w.toString(36)}x`
  const kanji = (w: number) => `日${String.fromCharCode(0x4e00 + w)}`
  for (let doc = 0; doc < DOCS; doc++) {
    const held: string[] = []
    for (let w = 0; w < WORDS; w++) if (doc % (w + 1) === 0) held.push(word(w), kanji(w))
    index.addDocument(doc, [held.join(' '), '', '', '', ''])
  }
  return index
}

test('a one-character word reads the postings of at most SHORT_PREFIX_WORDS longer words and itself; after MAX_SHORT_PREFIXES of them, of itself only', () => {
  const index = vocabularyIndex()
  const expansions = new TermExpansions(index, true)
  const read = (query: string) =>
    parseQuery(query).terms.map((term) => {
      const alternatives = expansions.groupsOf(term).flat()
      return [alternatives.length, alternatives.reduce((n, alt) => n + index.postings(alt.id).length, 0)]
    })
  const all = index.withPrefix('s', false)
  assert.ok(all.length >= WORDS, `${all.length} words begin with s`)
  for (const [alternatives, postings] of read('s 日')) {
    assert.ok((alternatives ?? 0) <= SHORT_PREFIX_WORDS + 1, `${alternatives} alternatives`)
    assert.ok((postings ?? 0) <= (SHORT_PREFIX_WORDS + 1) * DOCS, `${postings} postings`)
  }
  // The third and later: the word alone (no document holds `t` or `x` alone: nothing to read).
  assert.equal(read('s 日 t x 月').slice(2), [[0, 0], [0, 0], [0, 0]])
  assert.equal(read('t x s').slice(2), [[0, 0]])
  // Quoted, a word is found wherever it stands: every word it begins, as the query's term; as the phrase's, itself only.
  const quoted = parseQuery('"s"')
  assert.is(expansions.groupsOf(quoted.terms[0] ?? { kind: 'cjk', text: '', grams: [], prefix: false }).flat().length, all.length)
  assert.is(expansions.groupsOf(quoted.phrases[0]?.terms[0] ?? { kind: 'cjk', text: '', grams: [], prefix: false }).flat().length, 0)
})

test.run()

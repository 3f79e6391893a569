import { indexTerms, withinOneEdit } from '@frontdesk/core'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { InvertedIndex } from './inverted-index.ts'

/** Documents (by number) holding the term, read from its postings. */
function docsOf(index: InvertedIndex, term: string): number[] {
  const id = index.termId(term)
  if (id === undefined) return []
  const { list, length } = index.postings(id)
  return Array.from(list.subarray(0, length), (posting) => posting >>> 8)
}

// Thousands of distinct kanji bigrams: the numeric bigram table (4,096 slots at first) grows.
const long = Array.from({ length: 5000 }, (_, i) => String.fromCharCode(0x4e00 + (i % 2000), 0x6000 + ((i * 31) % 4999))).join('、')

test('every term of a document is found by its string, CJK bigrams included, however many there are', () => {
  const index = new InvertedIndex()
  index.addDocument(0, [long, 'harbour lights', '', '', ''])
  index.addDocument(1, ['オフィス移転', '', '', '', ''])
  for (const term of new Set(indexTerms(long))) assert.equal(docsOf(index, term), [0], term)
  assert.equal(docsOf(index, 'harbour'), [0])
  assert.equal(docsOf(index, 'オフ'), [1])
  assert.equal(docsOf(index, '移転'), [1])
  assert.equal(docsOf(index, '転'), [1])
})

test('a restored index keeps one id per term: documents added later join the same postings', () => {
  const built = new InvertedIndex()
  built.addDocument(0, ['東京都の港', 'harbour', '', '', ''])
  const restored = new InvertedIndex(built.toData())
  restored.addDocument(1, ['京都の港町', 'harbour master', '', '', ''])
  assert.equal(docsOf(restored, '京都'), [0, 1])
  assert.equal(docsOf(restored, 'harbour'), [0, 1])
  assert.equal(docsOf(restored, '港町'), [1])
  assert.is(restored.termCount, new Set([...indexTerms('東京都の港 harbour'), ...indexTerms('京都の港町 harbour master')]).size)
})

test('compact drops dead documents and renumbers the rest in order', () => {
  const index = new InvertedIndex()
  index.addDocument(0, ['alpha 東京', '', '', '', ''])
  index.addDocument(1, ['alpha', '', '', '', ''])
  index.addDocument(2, ['alpha 東京', '', '', '', ''])
  index.compact(Int32Array.from([-1, 0, 1]))
  assert.equal(docsOf(index, 'alpha'), [0, 1])
  assert.equal(docsOf(index, '東京'), [1])
})

test('the words one typo from a word are those core counts one typo away: swaps and letters beyond the BMP included', () => {
  const letter = fc.constantFrom('a', 'b', 'c', 'o', 'r', '𐌰', '𐌱')
  const word = fc.array(letter, { minLength: 1, maxLength: 7 }).map((letters) => letters.join(''))
  fc.assert(
    fc.property(fc.uniqueArray(word, { maxLength: 30 }), word, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (others, query, edits, astral) => {
      const index = new InvertedIndex()
      // Words a few edits from the query (swaps, one or two letters changed) beside random ones.
      const chars = [...query]
      const near = edits.map((e, k) => {
        const at = e % chars.length
        const copy = [...chars]
        if (k % 3 === 0) [copy[at], copy[at + 1]] = [copy[at + 1] ?? '', copy[at] ?? '']
        else copy.splice(at, k % 3, 'b')
        return copy.join('')
      })
      const vocabulary = [...new Set([...others, ...near])].filter((w) => w !== '')
      // Hint: with and without words beyond the BMP in the vocabulary (the lookup goes wider while there are some).
      const words = astral ? vocabulary : vocabulary.filter((w) => !/[\ud800-\udfff]/.test(w))
      words.forEach((w, doc) => index.addDocument(doc, [w, '', '', '', '']))
      const found = index.withinOneEdit(query).map(([term, , distance]) => `${term}:${distance}`).sort()
      const expected = words.filter((w) => withinOneEdit(query, w)).map((w) => `${w}:${w === query ? 0 : 1}`).sort()
      assert.equal(found, expected, JSON.stringify({ words, query }))
    }),
    { numRuns: 500 },
  )
})

test.run()

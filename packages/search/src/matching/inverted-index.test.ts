import { indexTerms } from '@frontdesk/core'
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

test.run()

import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { AnalyzedDocs } from './analyzed-docs.ts'
import { AnalyzedDocsWriter, AnalyzedReader, analyzedDocStarts, analyzedDocsValid } from './analyzed-docs.ts'
import { FIELDS, InvertedIndex } from './inverted-index.ts'

// Words shared by many documents (long lists: restored ones get tails), kanji and kana (bigrams), a letter beyond the BMP, HTML-free text.
const words = ['harbour', 'light', 'keeper', 'museum', 'the', 'of', '東京都', '港町', 'オフィス移転', 'café', '𝒳ray', 'ab', 'ba', 'x']
const text = fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((chosen) => chosen.join(' '))
// Every title has "the": a list longer than the shortest one a restored index grows by a tail.
const doc = fc.array(text, { minLength: FIELDS.length, maxLength: FIELDS.length }).map(([title, ...rest]) => [`the ${title ?? ''}`, ...rest])

/** The index as the bytes a snapshot would hold: every term, id and posting. */
function state(index: InvertedIndex): unknown {
  const { data, postings } = index.toData()
  return { data, postings: Array.from(postings) }
}

/** `docs` analysed, then copied through a second writer (as an import carries an older delta's items over). */
function analysed(docs: readonly string[][]): AnalyzedDocs {
  const first = new AnalyzedDocsWriter()
  for (const texts of docs) first.add(texts)
  const made = first.finish()
  const again = new AnalyzedDocsWriter()
  const starts = analyzedDocStarts(made, docs.length)
  for (const at of starts) again.copy(made, at)
  return again.finish()
}

test('documents indexed from their analysed terms, one by one or all at once, make the index their texts make, over a restored index too (lists that grow by tails)', () => {
  fc.assert(
    fc.property(fc.array(doc, { minLength: 65, maxLength: 90 }), fc.array(doc, { minLength: 1, maxLength: 30 }), fc.array(fc.boolean(), { minLength: 120, maxLength: 120 }), (before, added, dead) => {
      const base = new InvertedIndex()
      before.forEach((texts, i) => base.addDocument(i, texts))
      const restored = () => new InvertedIndex(base.toData())
      const fromTexts = restored()
      added.forEach((texts, i) => fromTexts.addDocument(before.length + i, texts))
      // What never restored: every list its own, grown by copies.
      const whole = new InvertedIndex()
      ;[...before, ...added].forEach((texts, i) => whole.addDocument(i, texts))
      assert.equal(state(fromTexts), state(whole))
      const docs = analysed(added)
      assert.ok(analyzedDocsValid(docs, added.length))
      const fromTerms = restored()
      const reader = new AnalyzedReader(docs)
      added.forEach((_, i) => fromTerms.addAnalyzed(before.length + i, reader))
      assert.ok(reader.done)
      assert.equal(state(fromTerms), state(fromTexts))
      // All at once (postings appended a term at a time), in runs as a start's delta and replay.
      const fromAll = restored()
      const all = new AnalyzedReader(docs)
      const split = Math.floor(added.length / 2)
      fromAll.addAnalyzedAll(added.slice(0, split).map((_, i) => before.length + i), all)
      fromAll.addAnalyzedAll(added.slice(split).map((_, i) => before.length + split + i), all)
      assert.ok(all.done)
      assert.equal(state(fromAll), state(fromTexts))
      // A compaction over lists with tails: as over lists grown by copies.
      const renumber = Int32Array.from({ length: before.length + added.length }, () => 0)
      let next = 0
      renumber.forEach((_, i) => (renumber[i] = dead[i] === true ? -1 : next++))
      whole.compact(renumber)
      fromTexts.compact(renumber)
      fromTerms.compact(renumber)
      assert.equal(state(fromTexts), state(whole))
      assert.equal(state(fromTerms), state(whole))
      // A document added after the compaction (which may have left room in a list with a tail).
      whole.addDocument(next, added[0] ?? [])
      fromTerms.addDocument(next, added[0] ?? [])
      assert.equal(state(fromTerms), state(whole))
      // And read term by term (each tail joined to its list).
      for (let id = 0; id < whole.termCount; id++) {
        const a = whole.postings(id)
        const b = fromTerms.postings(id)
        assert.equal(Array.from(b.list.subarray(0, b.length)), Array.from(a.list.subarray(0, a.length)))
      }
    }),
    { numRuns: 150 },
  )
})

test('analysed terms a damaged or cut file would leave are not valid', () => {
  const writer = new AnalyzedDocsWriter()
  writer.add(['harbour light harbour', '', '東京都', '', ''])
  writer.add(['keeper', '', '', '', ''])
  const docs = writer.finish()
  assert.ok(analyzedDocsValid(docs, 2))
  assert.not.ok(analyzedDocsValid(docs, 1), 'a document more than counted')
  assert.not.ok(analyzedDocsValid(docs, 3), 'a document less')
  assert.not.ok(analyzedDocsValid({ ...docs, numbers: docs.numbers.subarray(0, docs.numbers.length - 1) }, 2), 'cut')
  assert.not.ok(analyzedDocsValid({ ...docs, terms: docs.terms.slice(0, 1) }, 2), 'a term number out of range')
  assert.not.ok(analyzedDocsValid({ ...docs, cjk: [docs.terms.length] }, 2), 'a CJK term number out of range')
  // Numbers 0-1: the title's length (4: harbour, light, harbour) and its distinct terms (2); 2-5: two pairs (term, frequency).
  const changed = (at: number, value: number) => {
    const numbers = docs.numbers.slice()
    numbers[at] = value
    return { ...docs, numbers }
  }
  assert.equal(Array.from(docs.numbers.subarray(0, 6)), [3, 2, 0, 2, 1, 1])
  assert.not.ok(analyzedDocsValid(changed(0, 4), 2), 'a length its frequencies do not add up to')
  assert.not.ok(analyzedDocsValid(changed(1, 3), 2), 'a count of terms more than listed')
  assert.not.ok(analyzedDocsValid(changed(3, 0), 2), 'a frequency of 0')
  assert.not.ok(analyzedDocsValid(changed(2, 99), 2), 'an unknown term')
})

test.run()

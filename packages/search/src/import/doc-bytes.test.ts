import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SearchDocument } from '@frontdesk/core'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fileByteSpill, memoryByteSpill } from '../build/list-spill.ts'
import { DocBytes } from './doc-bytes.ts'

const aDoc = fc.record({
  id: fc.string({ minLength: 1, maxLength: 12 }),
  category_id: fc.constantFrom('news', 'ブログ'),
  status: fc.constantFrom('draft' as const, 'published' as const),
  published_at: fc.option(fc.constant('2025-01-01T00:00:00.000Z')),
  tags: fc.array(fc.string({ unit: 'grapheme', maxLength: 6 }), { maxLength: 3 }),
  fields: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.double({ noNaN: true }), fc.constant(null))),
}) as fc.Arbitrary<SearchDocument>

/** The items of `encoded` read back: each one's JSON text (cut at `jsonEnds`), after checking the pieces and the columns. */
const read = (bytes: DocBytes, order: Int32Array | null) => {
  const encoded = bytes.encoded(order)
  const pieces = [...(encoded.json instanceof Uint8Array ? [encoded.json] : encoded.json)]
  const joined = Buffer.concat(pieces)
  assert.is(joined.length, encoded.jsonBytes, 'the length announced')
  assert.ok(pieces.every((piece) => piece.length > 0), 'no empty piece')
  const texts = Array.from(encoded.jsonEnds, (end, k) => joined.toString('utf8', k === 0 ? 0 : (encoded.jsonEnds[k - 1] ?? 0), end))
  const ids = Array.from(encoded.idEnds, (end, k) => encoded.ids.slice(k === 0 ? 0 : (encoded.idEnds[k - 1] ?? 0), end))
  assert.equal(ids, texts.map((text) => (JSON.parse(text) as SearchDocument).id), 'the ids column')
  return { count: encoded.count, text: texts.join(',') }
}

test('the items read back, in any order, are the JSON of each item, with their ids: in memory and in a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-doc-bytes-test-'))
  try {
    fc.assert(
      fc.property(fc.array(aDoc, { maxLength: 40 }), fc.boolean(), fc.boolean(), fc.integer(), (docs, inFile, shuffled, seed) => {
        const bytes = new DocBytes(inFile ? fileByteSpill(dir) : memoryByteSpill())
        docs.forEach((doc, n) => assert.is(bytes.add(doc), n))
        let order: Int32Array | null = null
        if (shuffled) {
          // Hint: some items left out, the rest in another order (as an import's deletions and rewrites leave them).
          order = Int32Array.from(docs.keys()).filter((n) => (n * 31 + seed) % 5 !== 0)
          order.sort((a, b) => ((a * 17 + seed) % 7) - ((b * 17 + seed) % 7) || a - b)
        }
        const chosen = order === null ? docs : Array.from(order, (n) => docs[n] as SearchDocument)
        const { count, text } = read(bytes, order)
        assert.is(count, chosen.length)
        assert.is(`[${text}]`, JSON.stringify(chosen))
      }),
      { numRuns: 60 },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('items larger than a block, and more items than a piece', () => {
  const big = (n: number): SearchDocument => ({ id: `c${n}`, category_id: 'news', status: 'published', published_at: null, tags: ['é'.repeat(n % 3 === 0 ? 700_000 : 3)], fields: {} })
  for (const spill of [memoryByteSpill(), fileByteSpill()]) {
    const docs = Array.from({ length: 5000 }, (_, n) => big(n < 10 ? n : 1))
    const bytes = new DocBytes(spill)
    for (const doc of docs) bytes.add(doc)
    const order = Int32Array.from(docs.keys()).reverse()
    assert.is(`[${read(bytes, order).text}]`, JSON.stringify([...docs].reverse()))
  }
  const bytes = new DocBytes(memoryByteSpill())
  const docs = Array.from({ length: 20 }, (_, n) => big(n))
  for (const doc of docs) bytes.add(doc)
  assert.is(`[${read(bytes, null).text}]`, JSON.stringify(docs))
})

test('items whose worst-case size overflows the block but whose bytes fit it are kept whole, and so are those that do not fit', () => {
  // Hint: 1 MB blocks; 300,000 ASCII characters (bytes) an item: the second and third are measured before they are written, the fourth starts a block.
  const long = (n: number): SearchDocument => ({ id: `l${n}`, category_id: 'news', status: 'published', published_at: null, tags: [String(n).repeat(300_000)], fields: { f: 'ü' } })
  for (const spill of [memoryByteSpill(), fileByteSpill()]) {
    const bytes = new DocBytes(spill)
    const docs = Array.from({ length: 7 }, (_, n) => long(n))
    for (const doc of docs) bytes.add(doc)
    assert.is(`[${read(bytes, null).text}]`, JSON.stringify(docs))
  }
})

test.run()

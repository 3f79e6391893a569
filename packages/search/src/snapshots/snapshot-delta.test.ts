import { aCategory } from '@frontdesk/core/testing'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { AnalyzedDocsWriter } from '../matching/analyzed-docs.ts'
import type { SnapshotDelta } from './snapshot-delta.ts'
import { decodeDelta, encodeDelta } from './snapshot-delta.ts'

function aDelta(texts: string[][], removed: string[]): SnapshotDelta {
  const writer = new AnalyzedDocsWriter()
  for (const fields of texts) writer.add(fields)
  const items = texts.map((_, i) => ({ id: `c${i}`, category_id: 'news', status: 'published' as const, published_at: '2026-01-01T00:00:00.000Z', tags: ['alpha'], fields: { note: `n${i}` } }))
  return { tenantId: 't1', base: '10', position: '20', categories: [aCategory('t1', 'news')], items, terms: writer.finish(), removed }
}

/** The file's bytes as one buffer starting `offset` bytes into a larger one (a read's buffer need not be aligned). */
function bytesOf(delta: SnapshotDelta, offset = 0): Uint8Array {
  const pieces = encodeDelta(delta)
  const all = new Uint8Array(offset + pieces.reduce((sum, piece) => sum + piece.length, 0))
  let at = offset
  for (const piece of pieces) {
    all.set(piece, at)
    at += piece.length
  }
  return all.subarray(offset)
}

const decoded = (delta: SnapshotDelta | null) => delta && { ...delta, terms: { ...delta.terms, numbers: Array.from(delta.terms.numbers) } }

test('a delta reads back as written, its analysed terms included, from any offset; one of removals only too', () => {
  for (const delta of [aDelta([['Lighthouse keeper', 'harbour', '<p>東京都の港</p>', 'alpha', 'note'], ['museum', '', '', '', '']], ['c9']), aDelta([], ['c1', 'c2'])]) {
    for (const offset of [0, 1, 2, 3]) {
      assert.equal(decoded(decodeDelta(bytesOf(delta, offset), 't1', '10')), decoded(delta), `offset ${offset}`)
    }
    assert.is(decodeDelta(bytesOf(delta), 't1', '11'), null, 'made over another snapshot')
    // Over any snapshot: read with the base it names, for the caller to check; still only the tenant's.
    assert.equal(decoded(decodeDelta(bytesOf(delta), 't1', null)), decoded(delta))
    assert.is(decodeDelta(bytesOf(delta), 't2', null), null, 'another tenant\'s')
  }
  assert.ok(encodeDelta(aDelta([], ['c1'])).every((piece) => piece.length > 0), 'no empty pieces')
})

test('a delta cut anywhere is not read', () => {
  const bytes = bytesOf(aDelta([['Lighthouse keeper', 'harbour', '東京都の港', '', ''], ['museum lamp', '', '', '', '']], []))
  for (let length = 0; length < bytes.length; length++) assert.is(decodeDelta(bytes.subarray(0, length), 't1', '10'), null, `${length} bytes`)
  assert.ok(decodeDelta(bytes, 't1', '10'))
})

test.run()

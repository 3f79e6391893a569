import { endianness } from 'node:os'
import type { FieldValue, SearchDocument } from '@frontdesk/core'
import { ANALYZER_VERSION } from '@frontdesk/core'
import { aCategory } from '@frontdesk/core/testing'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { FieldSection } from '../tenant/doc-table.ts'
import { DocColumnsWriter } from '../tenant/doc-table.ts'
import type { TenantSnapshot } from '../tenant/tenant-index.ts'
import { INDEX_FORMAT } from '../tenant/tenant-index.ts'
import { decodeSnapshot, decodeSnapshotLead, encodeSnapshot } from './snapshot-codec.ts'

/** `count` items whose JSON needs escapes and every width of UTF-8 (1 to 4 bytes a character). */
function docs(count: number): SearchDocument[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `cnt_${String(i).padStart(6, '0')}${i % 11 === 0 ? '東' : ''}`,
    category_id: i % 2 === 0 ? 'cat_a' : 'cat_b',
    status: i % 3 === 0 ? 'draft' : 'published',
    published_at: i % 3 === 0 ? null : '2026-01-02T03:04:05.000Z',
    tags: i % 5 === 0 ? [] : [`tag "${i % 7}"`, 'é東京🎉'],
    fields: (i % 4 === 0 ? {} : { fld_a: i, fld_b: i % 2 === 0, fld_c: `line\nbreak \\ ${'\u2028'}` }) as Record<string, FieldValue>,
  }))
}

function snapshotOf(items: SearchDocument[], postings: number[]): TenantSnapshot {
  const writer = new DocColumnsWriter()
  const json = items.map((item) => new TextEncoder().encode(JSON.stringify(item)))
  items.forEach((item, i) => writer.add(item, json[i]?.length ?? 0))
  return {
    categories: [aCategory('ten_1', 'cat_a', { description: 'Über "quoted" 東京' }), aCategory('ten_1', 'cat_b')],
    docs: writer.finish(null, json),
    index: { terms: postings.length === 0 ? [] : ['word'], cjk: [], used: postings.length === 0 ? [] : [postings.length], fieldTotals: [1, 2, 3, 4, 5], fieldDocs: items.length },
    postings: [Uint32Array.from(postings)],
  }
}

/** The bytes of all pieces, one after the other. */
function joined(pieces: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(pieces))
}

for (const count of [0, 1, 4097]) {
  test(`${count} items: every column and each item's JSON read back as written`, () => {
    const items = docs(count)
    const tenant = snapshotOf(items, count === 0 ? [] : [7, 9, 11])
    const pieces = encodeSnapshot('42', tenant)
    assert.ok(pieces.every((piece) => piece.length > 0), 'no empty piece')
    const bytes = joined(pieces)
    const lead = decodeSnapshotLead(bytes)
    assert.equal(lead && { position: lead.position, items: lead.items }, { position: '42', items: count })
    const decoded = decodeSnapshot(bytes)
    if (decoded === null) throw new Error('not decoded')
    const read = decoded.tenant.docs
    const { json: _, ...columns } = tenant.docs
    // Hint: typed arrays compared as arrays of strings (NaN, never visible, is not equal to itself).
    const plain = (value: unknown) => (ArrayBuffer.isView(value) ? Array.from(value as Float64Array, String) : value)
    for (const [key, value] of Object.entries(columns)) assert.equal(plain(read[key as keyof typeof read]), plain(value), key)
    const block = Buffer.from(read.json instanceof Uint8Array ? read.json : [])
    const ends = read.jsonEnds
    assert.equal(Array.from(ends, (end, k) => JSON.parse(block.toString('utf8', k === 0 ? 0 : (ends[k - 1] ?? 0), end)) as unknown), items)
    assert.equal(decoded.tenant.categories, JSON.parse(JSON.stringify(tenant.categories)))
    assert.equal(decoded.tenant.index, tenant.index)
    assert.equal(Array.from(decoded.tenant.postings[0] ?? []), count === 0 ? [] : [7, 9, 11])
  })
}

test('a truncated, lengthened or inconsistent snapshot is never decoded', () => {
  const bytes = joined(encodeSnapshot('42', snapshotOf(docs(40), [1, 2, 3, 4])))
  assert.ok(decodeSnapshot(bytes) !== null)
  fc.assert(
    fc.property(fc.nat(bytes.length - 1), (length) => decodeSnapshot(bytes.slice(0, length)) === null),
    { numRuns: 200 },
  )
  assert.is(decodeSnapshot(joined([bytes, new Uint8Array(8)])), null, 'bytes after the last item')
  // Hint: decoded from aligned bytes, the columns are views of them: changing one changes the file.
  const damaged = (change: (columns: TenantSnapshot['docs']) => void) => {
    const copy = bytes.slice()
    const decoded = decodeSnapshot(copy)
    if (decoded === null) throw new Error('not decoded')
    change(decoded.tenant.docs)
    return decodeSnapshot(copy)
  }
  assert.ok(damaged(() => undefined) !== null, 'a copy reads')
  assert.is(damaged((columns) => (columns.idEnds[3] = (columns.idEnds[2] ?? 0) - 1)), null, 'an id ending before the one before')
  assert.is(damaged((columns) => (columns.jsonEnds[39] = (columns.jsonEnds[39] ?? 0) + 1)), null, 'the JSON ending beyond its block')
  assert.is(damaged((columns) => (columns.categoryOf[5] = 2)), null, 'an unknown category')
  assert.is(damaged((columns) => (columns.tagCodes[0] = columns.tagNames.length)), null, 'an unknown tag')
  assert.is(damaged((columns) => (columns.tagEnds[39] = (columns.tagEnds[39] ?? 0) - 1)), null, 'tags ending before the last')
  assert.is(damaged((columns) => ((columns.fields[0] as FieldSection).codes[0] = (columns.fields[0] as FieldSection).distinct)), null, 'a value code beyond the values')
  assert.is(damaged((columns) => ((columns.fields[0] as FieldSection).docs[1] = (columns.fields[0] as FieldSection).docs[0] ?? 0)), null, 'an item twice in a field')
  assert.is(damaged((columns) => ((columns.fields[0] as FieldSection).docs[29] = 40)), null, 'an item beyond the last')
})

test('a snapshot of the layout before columns (its items in the header) is not read: the index is built afresh', () => {
  const items = docs(3)
  for (const format of [INDEX_FORMAT - 1, INDEX_FORMAT]) {
    const lead = Buffer.from(JSON.stringify({ format, analyzer: ANALYZER_VERSION, endianness: endianness(), position: '42', items: items.length }))
    const header = Buffer.from(JSON.stringify({ categories: [aCategory('ten_1', 'cat_a')], docs: items, index: { terms: ['word'], cjk: [], used: [1], fieldTotals: [1, 2, 3, 4, 5], fieldDocs: 3 } }))
    const start = Buffer.alloc(8)
    start.write('FDSL', 0, 'latin1')
    start.writeUInt32LE(lead.length, 4)
    const length = Buffer.alloc(4)
    length.writeUInt32LE(header.length, 0)
    const padding = Buffer.alloc((4 - ((8 + lead.length + 4 + header.length) % 4)) % 4)
    const older = new Uint8Array(Buffer.concat([start, lead, length, header, padding, Buffer.from(Uint32Array.of(0).buffer)]))
    assert.is(decodeSnapshotLead(older)?.items ?? null, format === INDEX_FORMAT ? 3 : null, `the lead of format ${format}`)
    assert.is(decodeSnapshot(older), null, `format ${format}`)
  }
})

test.run()

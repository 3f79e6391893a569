import type { SearchDocument } from '@frontdesk/core'
import { aCategory } from '@frontdesk/core/testing'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { TenantSnapshot } from '../tenant/tenant-index.ts'
import { decodeSnapshot, decodeSnapshotLead, encodeSnapshot } from './snapshot-codec.ts'

/** `count` items whose JSON needs escapes and every width of UTF-8 (1 to 4 bytes a character). */
function docs(count: number): SearchDocument[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `cnt_${String(i).padStart(6, '0')}`,
    category_id: i % 2 === 0 ? 'cat_a' : 'cat_b',
    status: i % 3 === 0 ? 'draft' : 'published',
    published_at: i % 3 === 0 ? null : '2026-01-02T03:04:05.000Z',
    tags: i % 5 === 0 ? [] : [`tag "${i % 7}"`, 'é東京🎉'],
    fields: { fld_a: i, fld_b: i % 2 === 0, fld_c: `line\nbreak \\ ${'\u2028'}` },
  }))
}

function snapshotOf(items: SearchDocument[], postings: number[]): TenantSnapshot {
  return {
    categories: [aCategory('ten_1', 'cat_a', { description: 'Über "quoted" 東京' }), aCategory('ten_1', 'cat_b')],
    docs: items,
    index: { terms: postings.length === 0 ? [] : ['word'], cjk: [], used: postings.length === 0 ? [] : [postings.length], fieldTotals: [1, 2, 3, 4, 5], fieldDocs: items.length },
    postings: [Uint32Array.from(postings)],
  }
}

/** The bytes of all pieces, one after the other. */
function joined(pieces: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(pieces))
}

for (const count of [0, 1, 4095, 4096, 4097, 10_000]) {
  test(`${count} items: the header encoded in pieces is JSON.stringify of the index, and reads back; consumed, the same bytes`, () => {
    const tenant = snapshotOf(docs(count), count === 0 ? [] : [7, 9, 11])
    const pieces = encodeSnapshot('42', tenant)
    assert.ok(pieces.every((piece) => piece.length > 0), 'no empty piece')
    const bytes = joined(pieces)
    const lead = decodeSnapshotLead(bytes)
    assert.equal(lead && { position: lead.position, items: lead.items }, { position: '42', items: count })
    const headerAt = (lead?.end ?? 0) + 4
    const headerLength = new DataView(bytes.buffer).getUint32(lead?.end ?? 0, true)
    const { postings: _, ...rest } = tenant
    // Compared whole but reported briefly (a header of 10,000 items is 2 MB of text).
    const header = Buffer.from(bytes.subarray(headerAt, headerAt + headerLength)).toString()
    const expected = JSON.stringify(rest)
    let at = 0
    while (at < expected.length && header[at] === expected[at]) at++
    assert.ok(header === expected, `the header differs from JSON.stringify at character ${at}: ${JSON.stringify(header.slice(at, at + 40))}`)
    const decoded = decodeSnapshot(bytes)
    assert.equal(decoded?.tenant.docs, tenant.docs)
    assert.equal(decoded?.tenant.categories, JSON.parse(JSON.stringify(tenant.categories)))
    assert.equal(Array.from(decoded?.tenant.postings[0] ?? []), count === 0 ? [] : [7, 9, 11])
    const consumed = { ...tenant, docs: [...tenant.docs] }
    assert.ok(Buffer.from(joined(encodeSnapshot('42', consumed, true))).equals(Buffer.from(bytes)), 'the same bytes when the items are let go')
    assert.ok(consumed.docs.length === count && consumed.docs.every((doc) => doc === undefined), 'the items let go')
  })
}

test.run()

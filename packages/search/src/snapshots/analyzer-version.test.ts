import { ANALYZER_VERSION, parseQueryTerms } from '@frontdesk/core'
import { aCategory, aContent } from '@frontdesk/core/testing'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { TenantSearchIndex } from '../tenant/tenant-index.ts'
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec.ts'

/** The bytes of `parts` as one array. */
function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

test('a snapshot written by another analyzer version is not restored: the index is built afresh', () => {
  const categories = [aCategory('t1', 'news')]
  const index = new TenantSearchIndex(categories)
  index.upsert(aContent('t1', 'c1', 'news', { title: 'プライバシー COVID-19' }))
  const bytes = joined(encodeSnapshot('p1', index.toSnapshot()))
  const decoded = decodeSnapshot(bytes)
  assert.ok(decoded !== null, 'this version reads its own snapshots')
  const restored = new TenantSearchIndex(categories, decoded.tenant)
  const now = '2030-01-01T00:00:00.000Z'
  const found = restored.search({ terms: parseQueryTerms('ぷらいばしー covid19'), now, categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10 })
  assert.equal(found.hits.map((hit) => hit.id), ['c1'])
  // The same file as the previous analyzer (which indexed neither folded kana nor joined compounds) wrote it.
  const field = new TextEncoder().encode(`"analyzer":${ANALYZER_VERSION},`)
  const at = bytes.findIndex((_, i) => field.every((byte, k) => bytes[i + k] === byte))
  assert.ok(at > 0, 'the header names the analyzer version')
  const older = bytes.slice()
  older.set(new TextEncoder().encode(`"analyzer":${ANALYZER_VERSION - 1},`), at)
  assert.is(decodeSnapshot(older), null)
  // Only the version differs: with it put back, the file reads again.
  older.set(field, at)
  assert.ok(decodeSnapshot(older) !== null)
})

test.run()

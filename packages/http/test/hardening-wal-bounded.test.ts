// The WAL stays bounded: after a transaction far larger than the auto-checkpoint size (a big
// import from another connection), the file shrinks back when the importer closes, and once
// the next writes run, instead of staying as large as that transaction for as long as the
// server keeps the database open.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createFrontdesk, createTenant, importRecords } from '@frontdesk/core'

const MiB = 1024 * 1024

test('a 30 MiB import leaves no 30 MiB WAL behind once the importer closes, nor after the server writes again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-wal-'))
  const path = join(dir, 'wal.db')
  const wal = () => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0)
  // The server's store stays open throughout, as `frontdesk serve` does.
  const server = openSqliteStore({ path })
  const served = createFrontdesk({ store: server })
  try {
    await createTenant(served.context, { code: 'acme' })
    const importer = openSqliteStore({ path })
    const body = `<p>${'x'.repeat(15_000)}</p>`
    const records = [
      { kind: 'category', code: 'news', name: 'News' },
      ...Array.from({ length: 2_000 }, (_, i) => ({ kind: 'content', slug: `big-${i}`, title: `Big ${i}`, category_code: 'news', body })),
    ]
    await importRecords(createFrontdesk({ store: importer }).context, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: `r${i}` })) })
    const afterImport = wal()
    assert.ok(afterImport > 30 * MiB, `the import made only ${(afterImport / MiB).toFixed(1)} MiB of WAL: the test proves nothing`)
    // The importer leaves (as `frontdesk import` exits): it empties the WAL, although the server,
    // which only reads, still has the database open.
    assert.ok(await server.getTenantByCode('acme'), 'the server reads meanwhile')
    await importer.close()
    assert.ok(wal() < 1 * MiB, `the WAL is still ${(wal() / MiB).toFixed(1)} MiB after the importer closed`)
    for (let i = 0; i < 5; i++) {
      await importRecords(served.context, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: `small-${i}`, title: 'Small', category_code: 'news' }, location: 'x' }] })
    }
    assert.ok(wal() <= 17 * MiB, `the WAL is still ${(wal() / MiB).toFixed(1)} MiB`)
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

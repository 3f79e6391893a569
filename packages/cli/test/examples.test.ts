// examples/keys-and-import.sh against a scratch database, as the README tells users to run it.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'

const root = fileURLToPath(new URL('../../..', import.meta.url))

test('examples/keys-and-import.sh sets up a tenant, two least-privilege keys and the sample content', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-example-'))
  try {
    const db = join(dir, 'example.db')
    const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { encoding: 'utf8', timeout: 60_000 })
    assert.is(built.status, 0, built.stderr)
    const run = spawnSync('bash', [join(root, 'examples/keys-and-import.sh')], {
      encoding: 'utf8',
      timeout: 60_000,
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', FRONTDESK_DB: db },
    })
    assert.is(run.status, 0, run.stderr)
    assert.not.match(run.stdout, /fdk_[0-9A-Za-z]{38}/, 'the script does not print the keys themselves')
    const store = openSqliteStore({ path: db })
    try {
      const tenant = await store.getTenantByCode('acme')
      assert.ok(tenant)
      assert.equal((await store.listApiKeys(tenant.id)).map((k) => k.permissions), [['cms:read', 'cms:search'], ['inquiry:create']])
      const items = await store.listContents(tenant.id, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 100 })
      assert.is(items.length, 5)
      assert.ok(items.some((i) => i.title === 'オフィス移転のお知らせ' && i.version === 1))
      assert.is((await store.getInquiryCategoryByCode(tenant.id, 'sales'))?.name, '営業へのお問い合わせ')
    } finally {
      await store.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { SqliteFaults } from '@frontdesk/adapter-sqlite/test-faults'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createApiKey } from '../admin/create-api-key.ts'
import { createTenant } from '../admin/create-tenant.ts'
import { createFrontdesk } from '../app/frontdesk.ts'
import { authenticate } from './authenticate.ts'

test('a key is still accepted when recording last_used_at fails on a full disk; the next minute records it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-auth-'))
  const path = join(dir, 'auth.db')
  const store = openSqliteStore({ path })
  const clock = { t: Date.parse('2026-01-01T00:00:00Z'), now: () => clock.t }
  const { context } = createFrontdesk({ store, clock })
  const faults = SqliteFaults.install(path)
  try {
    await createTenant(context, { code: 'acme' })
    const { record, key } = await createApiKey(context, { tenantCode: 'acme', name: 'site', permissions: ['cms:read'] })
    faults.failNext('SQLITE_FULL', Infinity, { writesOnly: true })
    const principal = await authenticate(context, { apiKey: key, authorization: false }, 'cms:read')
    assert.is(principal.key.id, record.id)
    assert.ok(faults.injected > 0, 'the update was attempted and failed')
    faults.clear()
    assert.is((await store.getApiKey(record.id))?.last_used_at, null)
    clock.t += 1_000
    await authenticate(context, { apiKey: key, authorization: false }, 'cms:read')
    assert.is((await store.getApiKey(record.id))?.last_used_at, '2026-01-01T00:00:01.000Z')
  } finally {
    faults.uninstall()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

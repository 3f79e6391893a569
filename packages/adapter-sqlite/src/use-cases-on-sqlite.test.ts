import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { authenticate, createApiKey, createFrontdesk, createTenant } from '@frontdesk/core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SqliteFaults } from '../test/util/sqlite-faults.ts'
import { openSqliteStore } from './sqlite-store.ts'

// Core's use cases where a real database matters: the driver's own failures (a full disk) and
// several connections on one file (as several processes have). Core's own tests run on its
// memory store.

const onDisk = suite('core use cases over a real SQLite file')

onDisk('a key is still accepted when recording last_used_at fails on a full disk; the next minute records it', async () => {
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

onDisk('a list cursor keeps working in another process over the same database file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-cursor-'))
  const path = join(dir, 'frontdesk.db')
  const first = openSqliteStore({ path })
  const second = openSqliteStore({ path })
  try {
    const clock = { now: () => Date.parse('2025-06-20T12:00:00.000Z') }
    const one = createFrontdesk({ store: first, clock })
    const tenant = await createTenant(one.context, { code: 'acme' })
    const { record } = await createApiKey(one.context, { tenantCode: 'acme', name: 'reader', permissions: ['cms:read'] })
    const principal = { tenant, key: record }
    await first.transaction(async (tx) => {
      await tx.putCategory({
        tenant_id: tenant.id, id: 'cat_news', code: 'news', name: 'News', description: '', sort: 0, active: true, fields: [],
        created_at: '2025-06-20T11:00:00.000Z', updated_at: '2025-06-20T11:00:00.000Z',
      })
      for (const n of [1, 2, 3]) {
        await tx.putContent({
          tenant_id: tenant.id, id: `cnt_${n}`, slug: `item-${n}`, title: `Item ${n}`, category_id: 'cat_news', status: 'published',
          published_at: `2025-06-20T11:0${n}:00.000Z`, author_name: 'A', tags: [], summary: '', body: '', fields: {},
          meta: { og_title: '', og_description: '' }, version: 1, created_at: '2025-06-20T11:00:00.000Z', updated_at: '2025-06-20T11:00:00.000Z',
        })
      }
    })
    const page = (await one.listContents(principal, new URLSearchParams('sort=title:desc&limit=2'))).body
    assert.equal(page.items.map((i) => i.id), ['cnt_3', 'cnt_2'])
    const other = createFrontdesk({ store: second, clock })
    const cursor = page.pagination.next_cursor ?? ''
    const rest = (await other.listContents(principal, new URLSearchParams(`sort=title:desc&limit=2&cursor=${cursor}`))).body
    assert.equal(rest.items.map((i) => i.id), ['cnt_1'])
  } finally {
    await second.close()
    await first.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

onDisk.run()

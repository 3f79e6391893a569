import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as assert from 'uvu/assert'
import type { Store } from '@frontdesk/core'
import { addWebhookEndpoint, createFrontdesk, createTenant, importRecords, newSealingKey, sealingKey } from '@frontdesk/core'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { behaviourSuite, storeOf } from '../../test/util/cli-fixture.ts'

/*
 * The outbox under real crashes (the model-based test in core simulates them as rollbacks): a
 * child process imports batches one transaction after another and is killed with SIGKILL at a
 * random moment, three times over; after each, the database is opened again and its events
 * are checked against the items it holds: each item has exactly one `content.published`, each
 * retitled item exactly one `content.updated`, no event names an item that is not there, and
 * every batch the child saw committed is there.
 */

const test = await behaviourSuite('outbox under kill -9', import.meta.url)

test('a writer killed mid-import leaves exactly the events of what committed, run after run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-outbox-crash-'))
  let db = join(dir, 'db')
  let drop = async () => {}
  let open = async (): Promise<Store> => openSqliteStore({ path: db })
  if (storeOf(import.meta.url) === 'postgres') {
    const [{ createTestDatabase }, { openPostgresStore }] = await Promise.all([import('@frontdesk/adapter-postgres/testing'), import('@frontdesk/adapter-postgres')])
    const database = await createTestDatabase()
    db = database.url
    drop = database.drop
    open = () => openPostgresStore({ url: db })
  }
  try {
    let store = await open()
    const ctx = createFrontdesk({ store }).context
    const tenant = await createTenant(ctx, { code: 'acme' })
    await importRecords(ctx, { tenantCode: 'acme', records: [{ record: { kind: 'category', code: 'news', name: 'News' }, location: 'c' }] })
    await addWebhookEndpoint(ctx, sealingKey(newSealingKey()), { tenantCode: 'acme', url: 'https://hooks.example.com/h', events: 'content.*' })
    await store.close()
    const acked = new Set<string>()
    for (const run of ['a', 'b', 'c']) {
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(new URL('../../test/util/import-events.child.ts', import.meta.url)), db, run], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      // Hint: killed after 2–4 commits and a random pause, so that most kills land inside a transaction.
      const after = 2 + Math.floor(Math.random() * 3)
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL')
          reject(new Error('the child committed too few batches in time'))
        }, 60_000)
        let buffer = ''
        let seen = 0
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString()
          const lines = buffer.split('\n')
          buffer = lines.pop() ?? ''
          for (const line of lines) {
            acked.add(`${run}-${line.replace(/^ack /, '')}`)
            if (++seen === after) setTimeout(() => child.kill('SIGKILL'), Math.random() * 40)
          }
        })
        child.on('exit', () => {
          clearTimeout(timer)
          resolve()
        })
      })
      store = await open()
      try {
        const items = await store.listContents(tenant.id, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 10_000 })
        const titles = new Map(items.map((item) => [item.slug, item.title]))
        const events = await store.readEvents(0, 100_000, tenant.id)
        const count = (type: string, slug: string) => events.filter((e) => e.type === type && e.data['slug'] === slug).length
        for (const [slug, title] of titles) {
          assert.is(count('content.published', slug), 1, `${slug} is published once`)
          assert.is(count('content.updated', slug), title.endsWith(' edited') ? 1 : 0, `${slug} is updated once when retitled`)
        }
        for (const event of events) assert.ok(titles.has(String(event.data['slug'])), `${event.type} of ${String(event.data['slug'])}, which is not there`)
        assert.ok(events.every((e) => e.type === 'content.published' || e.type === 'content.updated'))
        for (const batch of acked) assert.ok(titles.has(`${batch}-0`), `batch ${batch} was acknowledged`)
        assert.ok(acked.size > 0)
      } finally {
        await store.close()
      }
    }
  } finally {
    await drop()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

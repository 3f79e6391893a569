import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { addWebhookEndpoint, createApiKey, createFrontdesk, createTenant, importRecords, newSealingKey, sealingKey, setWebhookEndpointDisabled } from '@frontdesk/core'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { webhookSealingKey } from './sealing-key.ts'
import { startEvents } from './start-events.ts'

/*
 * A PostgreSQL process without FRONTDESK_WEBHOOK_KEY cannot open the endpoints' secrets. It says
 * so once there is an enabled endpoint to deliver to, and stays quiet for an operator who has
 * none. The check reads the store only; the URL given decides which rule applies (a SQLite file
 * would make its own key), so a SQLite store stands in for the database here.
 */

async function troublesOf(endpoint: 'none' | 'enabled' | 'disabled'): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-start-events-'))
  const store = openSqliteStore({ path: join(dir, 'db') })
  try {
    const ctx = createFrontdesk({ store }).context
    await createTenant(ctx, { code: 'acme' })
    if (endpoint !== 'none') {
      const { record } = await addWebhookEndpoint(ctx, sealingKey(newSealingKey()), { tenantCode: 'acme', url: 'https://hooks.example.com/h', events: '*' })
      if (endpoint === 'disabled') await setWebhookEndpointDisabled(ctx, record.id, true)
    }
    const troubles: string[] = []
    const events = startEvents(ctx, 'postgres://frontdesk@db.example/frontdesk', { allowPrivate: false, vars: {}, onLine: () => {}, onTrouble: (line) => troubles.push(line) })
    // Hint: the first check starts at once and reads two small tables.
    for (let i = 0; i < 100 && troubles.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    await events.stop()
    return troubles
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

test('without FRONTDESK_WEBHOOK_KEY on PostgreSQL, serve warns only when an enabled endpoint awaits delivery', async () => {
  assert.equal(await troublesOf('none'), [])
  assert.equal(await troublesOf('disabled'), [])
  assert.equal(await troublesOf('enabled'), ['frontdesk: webhooks are not delivered by this process: set FRONTDESK_WEBHOOK_KEY (the key their secrets are sealed under)'])
})

test('a SQLite process started before the first `webhook add` made the key file starts delivering once it exists', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-start-events-'))
  const db = join(dir, 'db')
  const store = openSqliteStore({ path: db })
  const lines: string[] = []
  const frontdesk = createFrontdesk({ store })
  const ctx = frontdesk.context
  const events = startEvents(ctx, db, { allowPrivate: true, vars: {}, onLine: (line) => lines.push(line), onTrouble: () => {} })
  try {
    const tenant = await createTenant(ctx, { code: 'acme' })
    const { record: key } = await createApiKey(ctx, { tenantCode: 'acme', name: 'form', permissions: ['inquiry:create'], personal: false, rateLimit: 0 })
    await importRecords(ctx, { tenantCode: 'acme', records: [{ record: { kind: 'inquiry_category', code: 'general', name: 'General' }, location: 'a' }] })
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    // As `webhook add` does: the key file is made now, after the process started.
    const sealing = webhookSealingKey(db, {}, true)
    assert.ok(sealing)
    // Hint: nothing listens on port 9: the attempt fails, and is logged all the same.
    const { record } = await addWebhookEndpoint(ctx, sealing, { tenantCode: 'acme', url: 'https://127.0.0.1:9/h', events: '*' })
    await frontdesk.createInquiry({ tenant, key }, { category_code: 'general', title: 'Hi', content: 'x', inquirer_name: 'I', inquirer_email: 'i@example.com' })
    for (let i = 0; i < 500 && lines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    assert.is((JSON.parse(lines[0] ?? '{}') as { endpoint_id?: string }).endpoint_id, record.id, 'an attempt was made')
  } finally {
    await events.stop()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

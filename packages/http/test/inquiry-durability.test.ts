import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import * as https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as assert from 'uvu/assert'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { createTestDatabase } from '@frontdesk/adapter-postgres/testing'
import { openSqliteStore, SqliteStore } from '@frontdesk/adapter-sqlite'
import type { Store } from '@frontdesk/core'
import { createApiKey, createFrontdesk, createTenant, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RENEW_MS, newId } from '@frontdesk/core'
import { createDevCert } from '@frontdesk/http'
import type { AgentResponse } from './util/inquiry-requests.ts'
import { agentRequest } from './util/inquiry-requests.ts'
import { behaviourSuite, storeOf } from './util/test-server.ts'

const CHILD = fileURLToPath(new URL('./util/inquiry-server.child.ts', import.meta.url))
const HOLDER = fileURLToPath(new URL('./util/claim-holder.child.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

const BODY = { category_code: 'general', content: '至急ご連絡ください。', inquirer_name: '鈴木 一郎', inquirer_email: 'ichiro@example.jp' }

/** The store of a SQLite file or a `postgres://` URL. */
async function openAt(db: string): Promise<Store> {
  return db.startsWith('postgres://') ? openPostgresStore({ url: db }) : openSqliteStore({ path: db })
}

interface World {
  dir: string
  /** A SQLite file, or a PostgreSQL database's URL (see `storeOf`). */
  db: string
  drop: () => Promise<void>
  certFile: string
  keyFile: string
  ca: string
  /** A key of tenant `acme` holding `inquiry:create`. */
  apiKey: string
  children: ChildProcess[]
}

/** Starts a server process over the world's database and resolves with its address. */
function startChild(world: World): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, world.db, world.certFile, world.keyFile], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  world.children.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`server child did not start: ${output}`)), 30_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const port = /READY (\d+)/.exec(output)?.[1]
      if (port !== undefined) {
        clearTimeout(timer)
        resolve({ child, url: `https://127.0.0.1:${port}` })
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server child exited (${code}): ${output}`))
    })
  })
}

/** Starts a process whose request holds `key` and never finishes (`claim-holder.child.ts`); resolves once the claim is stored. */
function startHolder(world: World, key: string, body: unknown): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', HOLDER, world.db, world.apiKey, key, JSON.stringify(body)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  world.children.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`claim holder did not claim: ${output}`)), 30_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (!output.includes('\n')) return
      clearTimeout(timer)
      if (output.startsWith('HELD')) resolve(child)
      else reject(new Error(`claim holder: ${output}`))
    })
    child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`claim holder exited (${code}): ${output}`))
    })
  })
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

const durability = await behaviourSuite<World>('inquiries across a crashing server process', import.meta.url)

durability.before.each(async (world) => {
  // Hint: first what `after.each` reads, so that it has it whatever failed below.
  world.children = []
  world.dir = mkdtempSync(join(tmpdir(), 'frontdesk-durability-'))
  world.db = join(world.dir, 'frontdesk.db')
  world.drop = async () => {}
  if (storeOf(import.meta.url) === 'postgres') {
    const database = await createTestDatabase()
    world.db = database.url
    world.drop = database.drop
  }
  const pems = await createDevCert()
  world.ca = pems.ca
  world.certFile = join(world.dir, 'cert.pem')
  world.keyFile = join(world.dir, 'key.pem')
  writeFileSync(world.certFile, pems.cert)
  writeFileSync(world.keyFile, pems.key)
  const store = await openAt(world.db)
  const ctx = createFrontdesk({ store }).context
  const tenant = await createTenant(ctx, { code: 'acme' })
  world.apiKey = (await createApiKey(ctx, { tenantCode: 'acme', name: 'form', permissions: ['inquiry:create'] })).key
  const at = new Date().toISOString()
  await store.transaction((tx) =>
    tx.putInquiryCategory({ tenant_id: tenant.id, id: newId('icat'), code: 'general', name: 'General', description: '', sort: 0, active: true, message: '', created_at: at, updated_at: at }),
  )
  await store.close()
})

durability.after.each(async (world) => {
  await Promise.all(world.children.map(killed))
  rmSync(world.dir, { recursive: true, force: true })
  await world.drop()
})

durability('every acknowledged inquiry survives SIGKILL of the server mid-burst, and the database is intact', async (world) => {
  const { child, url } = await startChild(world)
  const agent = new https.Agent({ keepAlive: true, maxSockets: 16 })
  const target = { url, ca: world.ca, agent }
  const acked = new Map<string, { title: string; key: string }>()
  let sent = 0
  let killedAt = -1
  const worker = async (w: number) => {
    // Hint: every worker keeps sending until the server is gone, so requests are in flight when
    // it dies. Stopping at the kill let the last group commit answer every request in flight
    // now and then (all 16 in one batch), and then nothing was cut.
    for (let i = 0; i < 200; i++) {
      const title = `burst ${w}-${i}`
      const key = `k-${w}-${i}`
      sent++
      let response: AgentResponse
      try {
        response = await agentRequest(target, 'POST', '/v1/inquiries', { 'x-api-key': world.apiKey, 'idempotency-key': key }, { ...BODY, title })
      } catch {
        return // the server is gone
      }
      if (response.status !== 201 || response.body?.id === undefined) throw new Error(`unexpected ${response.status}`)
      acked.set(response.body.id, { title, key })
      if (acked.size === 60) {
        killedAt = sent
        // Hint: other workers still have requests in flight: this is the crash under load.
        child.kill('SIGKILL')
      }
    }
  }
  await Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)))
  agent.destroy()
  await killed(child)
  assert.ok(acked.size >= 60, `only ${acked.size} acknowledged of ${sent}`)
  assert.ok(killedAt > 0 && sent > acked.size, 'the kill must cut requests in flight')

  const store = await openAt(world.db)
  try {
    if (store instanceof SqliteStore) assert.equal(store.db.pragma('integrity_check'), [{ integrity_check: 'ok' }])
    const frontdesk = createFrontdesk({ store })
    const principal = await frontdesk.authenticate({ apiKey: world.apiKey, authorization: false }, 'inquiry:create')
    for (const [id, { title, key }] of acked) {
      const stored = await store.getInquiry(principal.tenant.id, id)
      assert.is(stored?.title, title, `acknowledged inquiry ${id} was lost`)
      // The stored idempotent response came through the crash with it.
      const replay = await frontdesk.createInquiry(principal, { ...BODY, title }, key)
      assert.is(replay.replayed, true)
      assert.is(replay.body.id, id)
    }
  } finally {
    await store.close()
  }
})

durability('two server processes over one database create exactly one inquiry for one Idempotency-Key', async (world) => {
  const servers = await Promise.all([startChild(world), startChild(world)])
  const agents = servers.map(() => new https.Agent({ keepAlive: true, maxSockets: 25 }))
  const headers = { 'x-api-key': world.apiKey }
  try {
    const targets = servers.map((server, i) => ({ url: server.url, ca: world.ca, agent: agents[i] as https.Agent }))
    await Promise.all(targets.flatMap((target) => Array.from({ length: 25 }, () => agentRequest(target, 'GET', '/v1/inquiries/categories', headers))))
    const responses = await Promise.all(
      targets.flatMap((target) => Array.from({ length: 25 }, () => agentRequest(target, 'POST', '/v1/inquiries', { ...headers, 'idempotency-key': 'one' }, { ...BODY, title: 'once' }))),
    )
    const statuses = responses.map((r) => r.status)
    assert.ok(statuses.every((s) => s === 201 || s === 409), statuses.join(','))
    const fresh = responses.filter((r) => r.status === 201 && !r.replayed)
    assert.is(fresh.length, 1)
    for (const r of responses.filter((r) => r.status === 201)) assert.is(r.body?.id, fresh[0]?.body?.id)
  } finally {
    for (const agent of agents) agent.destroy()
    await Promise.all(servers.map((server) => killed(server.child)))
  }
  const store = await openAt(world.db)
  try {
    const tenant = await store.getTenantByCode('acme')
    assert.is((await store.listInquiries(tenant?.id ?? '', { limit: 10 })).length, 1)
  } finally {
    await store.close()
  }
})

durability('a claim held by a process killed with kill -9 is taken over once its lease runs out; a retry honouring the 409 Retry-After goes through', async (world) => {
  const body = { ...BODY, title: 'after the crash' }
  const holder = await startHolder(world, 'crash-1', body)
  const { url } = await startChild(world)
  const agent = new https.Agent({ keepAlive: true })
  const target = { url, ca: world.ca, agent }
  const post = () => agentRequest(target, 'POST', '/v1/inquiries', { 'x-api-key': world.apiKey, 'idempotency-key': 'crash-1' }, body)
  try {
    // While the holder lives, it renews its claim: another process sees the lease move on.
    const first = await post()
    assert.is(first.status, 409)
    assert.is(first.body?.error?.code, 'IDEMPOTENCY_IN_PROGRESS')
    const store = await openAt(world.db)
    const tenant = await store.getTenantByCode('acme')
    const claimOf = () => store.claimIdempotencyKey(tenant?.id ?? '', 'crash-1', 'probe', { holder: 'probe', now: new Date().toISOString(), expiredBefore: '1970-01-01T00:00:00.000Z', staleBefore: new Date(Date.now() - IDEMPOTENCY_LEASE_MS).toISOString() })
    try {
      const before = await claimOf()
      await new Promise((resolve) => setTimeout(resolve, IDEMPOTENCY_RENEW_MS * 1.5))
      const after = await claimOf()
      assert.ok(before.state === 'in_flight' && after.state === 'in_flight', `${before.state} ${after.state}`)
      assert.ok(before.state === 'in_flight' && after.state === 'in_flight' && after.renewed_at > before.renewed_at, 'the living holder renewed its lease')
    } finally {
      await store.close()
    }

    await killed(holder)
    const killedAt = Date.now()
    // The retry a client makes: after the 409's Retry-After (at most the lease), with the same key.
    let response = await post()
    const statuses = [response.status]
    while (response.status === 409 && Date.now() - killedAt < 3 * IDEMPOTENCY_LEASE_MS) {
      const wait = Number(response.headers['retry-after'])
      assert.ok(wait >= 1 && wait <= IDEMPOTENCY_LEASE_MS / 1000, `Retry-After ${response.headers['retry-after']}`)
      await new Promise((resolve) => setTimeout(resolve, wait * 1000))
      response = await post()
      statuses.push(response.status)
    }
    const tookMs = Date.now() - killedAt
    assert.is(response.status, 201, statuses.join(','))
    assert.is(response.replayed, false)
    assert.ok(tookMs <= IDEMPOTENCY_LEASE_MS + 2_000, `the claim of the dead process was released after ${tookMs} ms`)
    assert.ok(statuses.length <= 3, `retries: ${statuses.join(',')}`)
    const replay = await post()
    assert.is(replay.status, 201)
    assert.is(replay.body?.id, response.body?.id)
  } finally {
    agent.destroy()
  }
  const store = await openAt(world.db)
  try {
    const tenant = await store.getTenantByCode('acme')
    assert.equal((await store.listInquiries(tenant?.id ?? '', { limit: 10 })).map((inquiry) => inquiry.title), ['after the crash'])
  } finally {
    await store.close()
  }
})

durability.run()

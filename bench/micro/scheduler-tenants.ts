/**
 * What the scheduler's polling costs with many tenants: `DueContentAnnouncer.tick()` (one pass
 * over every tenant, as each `serve` process runs every 250 ms) over a SQLite database of
 * `TENANTS` tenants with a few items each, nothing due; prints CPU and wall time per pass.
 * `node --conditions=source --import tsx bench/micro/scheduler-tenants.ts [TENANTS] [PASSES]`
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFrontdesk, createTenant, DueContentAnnouncer, importRecords } from '@frontdesk/core'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'

const tenants = Number(process.argv[2] ?? '1000')
const passes = Number(process.argv[3] ?? '20')
const dir = mkdtempSync(join(tmpdir(), 'frontdesk-scheduler-'))
const store = openSqliteStore({ path: join(dir, 'db') })
try {
  const ctx = createFrontdesk({ store }).context
  for (let t = 0; t < tenants; t++) {
    await createTenant(ctx, { code: `t${t}`, name: `Tenant ${t}` })
    await importRecords(ctx, {
      tenantCode: `t${t}`,
      records: [
        { record: { kind: 'category', code: 'news', name: 'News' }, location: 'a' },
        { record: { kind: 'content', slug: 'a', title: 'A', category_code: 'news', status: 'published', published_at: '2026-01-01T00:00:00.000Z' }, location: 'b' },
        { record: { kind: 'content', slug: 'b', title: 'B', category_code: 'news', status: 'published', published_at: '2099-01-01T00:00:00.000Z' }, location: 'c' },
      ],
    })
  }
  const announcer = new DueContentAnnouncer(ctx)
  await announcer.tick()
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < passes; i++) await announcer.tick()
  const used = process.cpuUsage(cpu)
  const cpuMs = (used.user + used.system) / 1000 / passes
  const wallMs = (performance.now() - started) / passes
  console.log(`${tenants} tenants: ${cpuMs.toFixed(1)} ms CPU, ${wallMs.toFixed(1)} ms wall per pass; every 250 ms that is ${((cpuMs / 250) * 100).toFixed(1)} % of a core per process`)
  await announcer.stop()
} finally {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
}

// Test helper (not a test): core's memory store, a movable clock, and quick ways to put
// categories and content, for the content-area use-case tests.
import { createApiKey } from '../../src/admin/create-api-key.ts'
import { createTenant } from '../../src/admin/create-tenant.ts'
import { isoAt } from '../../src/app/clock.ts'
import { createFrontdesk } from '../../src/app/frontdesk.ts'
import type { Principal } from '../../src/auth/principal.ts'
import type { CategoryRecord } from '../../src/model/category.ts'
import type { ContentRecord } from '../../src/model/content.ts'
import type { Tag } from '../../src/model/tag.ts'
import type { Tenant } from '../../src/model/tenant.ts'
import { createMemoryStore } from '../../src/testing/memory/memory-store.ts'
import { newId } from '../../src/util/ids.ts'

/** A clock tests move by hand. */
export interface TestClock {
  now(): number
  set(ms: number): void
  advance(ms: number): void
}

/** 2025-06-20T12:00:00Z, where every fixture starts. */
export const START = Date.parse('2025-06-20T12:00:00.000Z')

/** A clock standing at `start` until moved. */
export function testClock(start = START): TestClock {
  let now = start
  return { now: () => now, set: (ms) => void (now = ms), advance: (ms) => void (now += ms) }
}

/** Content-area fixture over a fresh memory store (`store.database` opens another "process" on it). */
export async function openContentFixture() {
  const store = createMemoryStore()
  const clock = testClock()
  const frontdesk = createFrontdesk({ store, clock })
  const ctx = frontdesk.context

  async function tenant(code: string): Promise<{ tenant: Tenant; principal: Principal }> {
    const created = await createTenant(ctx, { code })
    const { record } = await createApiKey(ctx, { tenantCode: code, name: 'reader', permissions: ['cms:read'] })
    return { tenant: created, principal: { tenant: created, key: record } }
  }

  async function category(tenant: Tenant, fields: Partial<CategoryRecord> & { code: string }): Promise<CategoryRecord> {
    const stamp = isoAt(clock.now())
    const record: CategoryRecord = {
      tenant_id: tenant.id, id: newId('cat'), name: fields.code, description: '', sort: 0, active: true, fields: [],
      created_at: stamp, updated_at: stamp, ...fields,
    }
    await store.transaction((tx) => tx.putCategory(record))
    return record
  }

  async function tags(tenant: Tenant, names: string[]): Promise<Tag[]> {
    return store.transaction(async (tx) => {
      const out: Tag[] = []
      for (const name of names) {
        const found = await tx.getTagByName(tenant.id, name)
        const tag = found ?? { tenant_id: tenant.id, id: newId('tag'), name }
        if (found === null) await tx.putTag(tag)
        out.push({ id: tag.id, name: tag.name })
      }
      return out
    })
  }

  let serial = 0
  async function content(
    tenant: Tenant,
    category: CategoryRecord,
    fields: Partial<Omit<ContentRecord, 'tags'>> & { tags?: string[] } = {},
  ): Promise<ContentRecord> {
    serial++
    const stamp = isoAt(clock.now())
    const { tags: names = [], ...rest } = fields
    const record: ContentRecord = {
      tenant_id: tenant.id, id: newId('cnt'), slug: `item-${serial}`, title: `Item ${serial}`, category_id: category.id,
      status: 'published', published_at: isoAt(clock.now() - 60_000 * serial), author_name: 'Author', tags: await tags(tenant, names),
      summary: `Summary ${serial}`, body: `<p>Body ${serial}</p>`, fields: {}, meta: { og_title: '', og_description: '' },
      version: 1, created_at: stamp, updated_at: stamp, ...rest,
    }
    await store.transaction((tx) => tx.putContent(record))
    return record
  }

  async function remove(tenant: Tenant, id: string): Promise<void> {
    await store.transaction((tx) => tx.deleteContent(tenant.id, id))
  }

  async function close(): Promise<void> {
    await store.close()
  }

  return { store, clock, frontdesk, ctx, tenant, category, content, remove, close }
}

/** What `openContentFixture` resolves to. */
export type ContentFixture = Awaited<ReturnType<typeof openContentFixture>>

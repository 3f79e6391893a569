import { createApiKey } from '../../src/admin/create-api-key.ts'
import { createTenant } from '../../src/admin/create-tenant.ts'
import { isoAt } from '../../src/app/clock.ts'
import type { FrontdeskHooks } from '../../src/app/hooks.ts'
import type { Frontdesk } from '../../src/app/frontdesk.ts'
import { createFrontdesk } from '../../src/app/frontdesk.ts'
import type { Principal } from '../../src/auth/principal.ts'
import type { InquiryCategoryRecord } from '../../src/model/inquiry.ts'
import type { Store } from '../../src/port/store.ts'
import { createMemoryStore } from '../../src/testing/memory/memory-store.ts'
import type { MemoryStore } from '../../src/testing/memory/memory-store.ts'
import { newId } from '../../src/util/ids.ts'

/** A clock tests move by hand. */
export interface ManualClock {
  now(): number
  advance(ms: number): void
}

/** A use-case test's world: core's memory store, the app over it, a clock, a tenant with a key. */
export interface InquiryFixture {
  store: MemoryStore
  frontdesk: Frontdesk
  clock: ManualClock
  /** A tenant `acme` and a key of it holding `inquiry:create`. */
  principal: Principal
  /** Creates another tenant and a key of it. */
  otherTenant(code: string): Promise<Principal>
  /** Adds (or replaces, by code) an inquiry category of `tenantId`. */
  category(tenantId: string, fields: Partial<InquiryCategoryRecord> & { code: string }): Promise<InquiryCategoryRecord>
  close(): Promise<void>
}

/** A valid creation body for category `general`. */
export const VALID_BODY = {
  category_code: 'general',
  title: 'Question about pricing',
  content: 'How much is the enterprise plan?',
  inquirer_name: '山田 太郎',
  inquirer_email: 'taro@example.co.jp',
} as const

/**
 * Opens a fresh memory store with tenant `acme` holding an active category `general`. `wrap`
 * may put a store in front of it (e.g. to make one call fail).
 */
export async function inquiryFixture(options: { hooks?: FrontdeskHooks; wrap?: (store: Store) => Store } = {}): Promise<InquiryFixture> {
  const store = createMemoryStore()
  let time = Date.parse('2026-03-01T09:00:00.000Z')
  const clock: ManualClock = { now: () => time, advance: (ms) => void (time += ms) }
  const frontdesk = createFrontdesk({ store: options.wrap ? options.wrap(store) : store, clock, ...(options.hooks ? { hooks: options.hooks } : {}) })
  const ctx = frontdesk.context

  async function principalOf(code: string): Promise<Principal> {
    const tenant = await createTenant(ctx, { code })
    const { record } = await createApiKey(ctx, { tenantCode: code, name: 'form', permissions: ['inquiry:create'] })
    return { tenant, key: record }
  }

  async function category(tenantId: string, fields: Partial<InquiryCategoryRecord> & { code: string }): Promise<InquiryCategoryRecord> {
    const existing = await store.getInquiryCategoryByCode(tenantId, fields.code)
    const now = isoAt(clock.now())
    const record: InquiryCategoryRecord = {
      tenant_id: tenantId,
      id: existing?.id ?? newId('icat'),
      name: fields.code,
      description: '',
      sort: 0,
      active: true,
      message: '',
      created_at: now,
      updated_at: now,
      ...fields,
    }
    await store.transaction((tx) => tx.putInquiryCategory(record))
    return record
  }

  const principal = await principalOf('acme')
  await category(principal.tenant.id, { code: 'general', name: 'General', message: 'Thanks! We reply within two business days.' })
  return {
    store,
    frontdesk,
    clock,
    principal,
    otherTenant: principalOf,
    category,
    async close() {
      await store.close()
    },
  }
}

/** Resolves after `ms`, or rejects with `message` if `promise` has not settled by then. */
export function within<T>(ms: number, promise: Promise<T>, message = `did not settle within ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

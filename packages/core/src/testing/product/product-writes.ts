import { createApiKey } from '../../admin/create-api-key.ts'
import { deleteApiKey } from '../../admin/delete-api-key.ts'
import { deleteContentItem } from '../../admin/delete-content-item.ts'
import { importRecords } from '../../admin/import-records.ts'
import { listApiKeys } from '../../admin/list-api-keys.ts'
import { setApiKeyDisabled } from '../../admin/set-api-key-disabled.ts'
import { setContentStatus } from '../../admin/set-content-status.ts'
import { generateApiKey } from '../../auth/api-key.ts'
import type { JsonValue } from '../../model/json.ts'
import { createPreviewToken } from '../../preview/create-preview-token.ts'
import { revokePreviewToken } from '../../preview/revoke-preview-token.ts'
import { assertSame } from './compare-search-replies.ts'
import { importRecordsOf, itemId, itemSlug } from './product-requests.ts'
import type { CategorySpec, FieldKey, ItemSpec, ProductOp, TenantIndex } from './product-scenario.ts'
import { PRODUCT_CATEGORIES, PRODUCT_TAGS } from './product-scenario.ts'
import type { Side, World } from './product-world.ts'
import { stateOf } from './product-world.ts'
import type { Outcome } from './reply-cache-model.ts'
import { keyOrderFree, outcome } from './reply-cache-model.ts'

/** A write of a scenario: an operation other than a read, or a tenant's first import (`categories: 'all'`). */
export type WriteOp = Exclude<ProductOp, { kind: 'search' | 'list' | 'detail' | 'categories' | 'again' | 'restart' }> | { kind: 'import'; tenant: TenantIndex; categories: 'all'; items: ItemSpec[] }

/** Every category with every field it may have, active, none required. */
const ALL_CATEGORIES: CategorySpec[] = (Object.keys(PRODUCT_CATEGORIES) as (keyof typeof PRODUCT_CATEGORIES)[]).map((id, sort) => ({
  id, active: true, sort, options: 0, fields: PRODUCT_CATEGORIES[id].fields.map((key: FieldKey) => ({ key, required: false })),
}))

/**
 * Tells both sides the same write and fails unless they answer alike (the same summary,
 * record or refusal). What only the product can make at random (a key, a preview token) is
 * made by the product, then stored as it is in the reference too, so that both know it.
 */
export async function playWrite(world: World, op: WriteOp, where: string): Promise<void> {
  const both = async (call: (side: Side) => Promise<unknown>, label = where): Promise<Outcome> => {
    const got = keyOrderFree(await outcome(() => call(world.product)))
    const expected = keyOrderFree(await outcome(() => call(world.reference)))
    assertSame(got, expected, label)
    return got
  }
  const code = (tenant: TenantIndex) => world.tenants[tenant]?.code ?? ''
  switch (op.kind) {
    case 'import': {
      const tenantId = world.tenants[op.tenant]?.id ?? ''
      const records = importRecordsOf(await stateOf(world, op.tenant), op.categories === 'all' ? ALL_CATEGORIES : op.categories, op.items)
      const first = !world.imported[op.tenant]
      const result = await both((side) => importRecords(side.frontdesk.context, {
        tenantCode: code(op.tenant),
        records: records.map((record, i) => ({ record, location: `records[${i}]` })),
        ...transaction(side, tenantId, first),
      }))
      if (result.ok) world.imported[op.tenant] = true
      return
    }
    case 'renameTag': {
      const tag = PRODUCT_TAGS[op.tag]
      if (tag === undefined) return
      const record = { kind: 'tag', id: tag.id, name: op.name }
      await both((side) => importRecords(side.frontdesk.context, { tenantCode: code(op.tenant), records: [{ record, location: 'records[0]' }] }))
      return
    }
    case 'delete':
      await both((side) => deleteContentItem(side.frontdesk.context, code(op.tenant), op.bySlug ? itemSlug(op.n) : itemId(op.n)))
      return
    case 'status':
      await both((side) => setContentStatus(side.frontdesk.context, code(op.tenant), itemId(op.n), op.status))
      return
    case 'time':
      world.clock.ms = op.ms === null ? await nextScheduled(world) : world.clock.ms + op.ms
      return
    case 'previewCreate': {
      const target = op.target.kind === 'content' ? { kind: 'content' as const, id: itemId(op.target.n) } : op.target
      const input = { tenantCode: code(op.tenant), target, ttlMs: op.ttlMs }
      const made = await outcome(() => createPreviewToken(world.product.frontdesk.context, input))
      const expected = await outcome(() => createPreviewToken(world.reference.frontdesk.context, input))
      assertSame(recordOnly(made), recordOnly(expected), where)
      if (!made.ok) return
      const { record, token } = made.value as Awaited<ReturnType<typeof createPreviewToken>>
      await world.reference.frontdesk.context.store.createPreviewToken(record)
      world.tokens.push({ id: record.id, token })
      return
    }
    case 'previewRevoke': {
      const token = world.tokens[op.token % Math.max(1, world.tokens.length)]
      if (token !== undefined) await both((side) => revokePreviewToken(side.frontdesk.context, token.id))
      return
    }
    case 'keyCreate': {
      const input = { tenantCode: code(op.tenant), name: `key ${world.keys.length}`, permissions: op.permissions, personal: op.personal, rateLimit: 0 }
      const made = await outcome(() => createApiKey(world.product.frontdesk.context, input))
      const expected = await outcome(() => createApiKey(world.reference.frontdesk.context, input))
      assertSame(recordOnly(made), recordOnly(expected), where)
      if (!made.ok) return
      const { record, key } = made.value as Awaited<ReturnType<typeof createApiKey>>
      // Hint: the reference's own key (another secret) goes; the product's is stored in its place.
      if (expected.ok) await world.reference.frontdesk.context.store.deleteApiKey((expected.value as { record: { id: string } }).record.id)
      await world.reference.frontdesk.context.store.createApiKey(record)
      world.keys.push({ id: record.id, key })
      return
    }
    case 'keyDisable': {
      const key = world.keys[op.key % Math.max(1, world.keys.length)]
      if (key !== undefined) await both((side) => setApiKeyDisabled(side.frontdesk.context, key.id, op.disabled))
      return
    }
    case 'keyDelete': {
      const key = world.keys[op.key % Math.max(1, world.keys.length)]
      if (key !== undefined) await both((side) => deleteApiKey(side.frontdesk.context, key.id))
      return
    }
    case 'auth': {
      const key = op.key < 0 || world.keys.length === 0 ? generateApiKey('tenant').key : (world.keys[op.key % world.keys.length]?.key ?? '')
      await both(async (side) => {
        const principal = await side.frontdesk.authenticate({ apiKey: key, authorization: false }, op.permission)
        return { tenant: principal.tenant, key: principal.key }
      })
      // The last-use stamps as stored.
      for (const tenant of [0, 1] as const) await both((side) => listApiKeys(side.frontdesk.context, code(tenant)), `${where}: the keys of tenant ${tenant} after it`)
      return
    }
  }
}

function transaction(side: Side, tenantId: string, first: boolean): { transaction?: NonNullable<ReturnType<Side['importTransaction']>> } {
  const options = side.importTransaction(tenantId, first)
  return options === undefined ? {} : { transaction: options }
}

/** The record a key or token was made with, without what is made at random (id, hash, prefix), for comparing two sides'. */
function recordOnly(result: Outcome): Outcome {
  if (!result.ok) return result
  const { id: _id, hash: _hash, prefix: _prefix, ...rest } = (result.value as { record: Record<string, JsonValue> }).record
  return keyOrderFree({ ok: true, json: '', value: rest })
}

/** The moment the next scheduled item of either tenant comes due (or a minute on, when none is waiting). */
async function nextScheduled(world: World): Promise<number> {
  const now = world.clock.ms
  let next = Number.POSITIVE_INFINITY
  for (const tenant of world.tenants) {
    const items = await world.reference.frontdesk.context.store.listContents(tenant.id, { visibility: { kind: 'all' }, sort: { key: 'published_at', direction: 'asc' }, limit: 1_000 })
    for (const item of items) {
      const at = item.published_at === null ? Number.NaN : Date.parse(item.published_at)
      if (at > now && at < next) next = at
    }
  }
  return Number.isFinite(next) ? next : now + 60_000
}

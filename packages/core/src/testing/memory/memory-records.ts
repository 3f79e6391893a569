import type { ApiKeyRecord } from '../../model/api-key.ts'
import { idempotencyInProgress } from '../../inquiry/idempotency-key.ts'
import type { IdempotencyClaim, IdempotencyClaimTerms, StoredResponse } from '../../model/idempotency.ts'
import type { InquiryRecord, InquiryStatus } from '../../model/inquiry.ts'
import type { PreviewTokenRecord } from '../../model/preview-token.ts'
import type { Tenant } from '../../model/tenant.ts'
import type { OutboxEvent } from '../../port/event-outbox.ts'
import type { SearchSourceItem } from '../../port/search-source.ts'
import type { MemoryTables } from './memory-tables.ts'
import { appendEvents, compareText, contentsOf, ofTenant, refuse, requireTenant, rowKey, stored } from './memory-tables.ts'

/*
 * The memory store's records beyond the content model, as plain functions over the tables:
 * reads take the committed tables, writes a draft's (see `MemoryStore`).
 */

export function createTenant(tables: MemoryTables, tenant: Tenant): void {
  if (tables.tenants.has(tenant.id)) refuse(`tenant ${tenant.id} exists`)
  if ([...tables.tenants.values()].some((t) => t.code === tenant.code)) refuse(`tenant code ${tenant.code} is taken`)
  tables.tenants.set(tenant.id, stored(tenant))
}
export function getTenant(tables: MemoryTables, id: string): Tenant | null {
  return tables.tenants.get(id) ?? null
}
export function getTenantByCode(tables: MemoryTables, code: string): Tenant | null {
  return [...tables.tenants.values()].find((t) => t.code === code) ?? null
}
export function listTenants(tables: MemoryTables): Tenant[] {
  return [...tables.tenants.values()].sort((a, b) => compareText(a.code, b.code))
}

export function createApiKey(tables: MemoryTables, record: ApiKeyRecord): void {
  requireTenant(tables, record.tenant_id)
  if (tables.apiKeys.has(record.id)) refuse(`API key ${record.id} exists`)
  if ([...tables.apiKeys.values()].some((k) => k.hash === record.hash)) refuse('an API key with this hash exists')
  tables.apiKeys.set(record.id, stored(record))
}
export function findApiKeyByHash(tables: MemoryTables, hash: string): { key: ApiKeyRecord; tenant: Tenant } | null {
  const key = [...tables.apiKeys.values()].find((k) => k.hash === hash)
  const tenant = key === undefined ? undefined : tables.tenants.get(key.tenant_id)
  return key === undefined || tenant === undefined ? null : { key, tenant }
}
export function getApiKey(tables: MemoryTables, id: string): ApiKeyRecord | null {
  return tables.apiKeys.get(id) ?? null
}
/** By creation time, then id. */
export function listApiKeys(tables: MemoryTables, tenantId: string): ApiKeyRecord[] {
  return ofTenant(tables.apiKeys, tenantId).sort((a, b) => compareText(a.created_at, b.created_at) || compareText(a.id, b.id))
}
export function updateApiKey(tables: MemoryTables, id: string, patch: Partial<Pick<ApiKeyRecord, 'disabled_at' | 'last_used_at' | 'rate_limit'>>): boolean {
  const key = tables.apiKeys.get(id)
  if (key === undefined) return false
  const changed = { ...key }
  if (patch.disabled_at !== undefined) changed.disabled_at = patch.disabled_at
  if (patch.last_used_at !== undefined) changed.last_used_at = patch.last_used_at
  if (patch.rate_limit !== undefined) changed.rate_limit = patch.rate_limit
  tables.apiKeys.set(id, Object.freeze(changed))
  return true
}

export function createPreviewToken(tables: MemoryTables, record: PreviewTokenRecord): void {
  requireTenant(tables, record.tenant_id)
  if (tables.previewTokens.has(record.id)) refuse(`preview token ${record.id} exists`)
  if ([...tables.previewTokens.values()].some((t) => t.hash === record.hash)) refuse('a preview token with this hash exists')
  tables.previewTokens.set(record.id, stored(record))
}
export function findPreviewTokenByHash(tables: MemoryTables, hash: string): PreviewTokenRecord | null {
  return [...tables.previewTokens.values()].find((t) => t.hash === hash) ?? null
}
export function getPreviewToken(tables: MemoryTables, id: string): PreviewTokenRecord | null {
  return tables.previewTokens.get(id) ?? null
}
export function revokePreviewToken(tables: MemoryTables, id: string, at: string): boolean {
  const token = tables.previewTokens.get(id)
  if (token === undefined) return false
  tables.previewTokens.set(id, Object.freeze({ ...token, revoked_at: at }))
  return true
}

/**
 * Stores the inquiry and its outbox `events` and, with `idempotency`, completes the key's
 * record: all or nothing (the caller's draft), and only while `idempotency.holder` holds the
 * key's in-flight claim.
 */
export function insertInquiry(tables: MemoryTables, record: InquiryRecord, idempotency?: { key: string; holder: string; response: StoredResponse }, events: readonly OutboxEvent[] = []): void {
  requireTenant(tables, record.tenant_id)
  const id = rowKey(record.tenant_id, record.id)
  if (tables.inquiries.has(id)) refuse(`inquiry ${record.id} exists`)
  if (idempotency === undefined) {
    tables.inquiries.set(id, stored(record))
    appendEvents(tables, events)
    return
  }
  const keyId = rowKey(record.tenant_id, idempotency.key)
  const claim = tables.idempotency.get(keyId)
  if (claim?.state !== 'in_flight' || claim.holder !== idempotency.holder) throw idempotencyInProgress()
  tables.inquiries.set(id, stored(record))
  appendEvents(tables, events)
  tables.idempotency.set(keyId, { ...claim, state: 'completed', response: stored(idempotency.response) })
}
export function getInquiry(tables: MemoryTables, tenantId: string, id: string): InquiryRecord | null {
  return tables.inquiries.get(rowKey(tenantId, id)) ?? null
}
/** Newest (highest id) first. */
export function listInquiries(tables: MemoryTables, tenantId: string, options: { status?: InquiryStatus; before?: string; limit: number }): InquiryRecord[] {
  const { status, before } = options
  return ofTenant(tables.inquiries, tenantId)
    .filter((i) => (status === undefined || i.status === status) && (before === undefined || i.id < before))
    .sort((a, b) => compareText(b.id, a.id))
    .slice(0, Math.max(0, Math.floor(options.limit)))
}

/** See `InquiryStore.claimIdempotencyKey`; expired records of the tenant are dropped on the way. */
export function claimIdempotencyKey(
  tables: MemoryTables,
  tenantId: string,
  key: string,
  requestHash: string,
  times: IdempotencyClaimTerms,
): IdempotencyClaim {
  for (const [id, row] of tables.idempotency) {
    if (id.startsWith(rowKey(tenantId, '')) && row.claimed_at < times.expiredBefore) tables.idempotency.delete(id)
  }
  const id = rowKey(tenantId, key)
  const row = tables.idempotency.get(id)
  if (row?.state === 'completed' && row.response !== null) {
    return { state: 'completed', request_hash: row.request_hash, response: row.response }
  }
  if (row !== undefined && row.claimed_at >= times.staleBefore) return { state: 'in_flight', renewed_at: row.claimed_at }
  tables.idempotency.set(id, { request_hash: requestHash, state: 'in_flight', claimed_at: times.now, holder: times.holder, response: null })
  return { state: 'claimed' }
}
/** See `InquiryStore.renewIdempotencyKey`. */
export function renewIdempotencyKey(tables: MemoryTables, tenantId: string, key: string, holder: string, now: string): boolean {
  const id = rowKey(tenantId, key)
  const row = tables.idempotency.get(id)
  if (row?.state !== 'in_flight' || row.holder !== holder) return false
  tables.idempotency.set(id, { ...row, claimed_at: now })
  return true
}
/** Drops `holder`'s in-flight claim; any other record stays. */
export function releaseIdempotencyKey(tables: MemoryTables, tenantId: string, key: string, holder: string): void {
  const id = rowKey(tenantId, key)
  const row = tables.idempotency.get(id)
  if (row?.state === 'in_flight' && row.holder === holder) tables.idempotency.delete(id)
}

/** See `SearchSource.readSearchItems`. */
export function readSearchItems(tables: MemoryTables, tenantId: string, range: { after: string | null; before?: string | null }, limit: number): SearchSourceItem[] {
  const { after, before = null } = range
  return contentsOf(tables, tenantId)
    .filter((item) => (after === null || item.id > after) && (before === null || item.id < before))
    .slice(0, Math.max(0, Math.floor(limit)))
    .map((item) => ({
      doc: {
        id: item.id, category_id: item.category_id, status: item.status, published_at: item.published_at,
        tags: item.tags.map((tag) => tag.name), fields: item.fields,
      },
      title: item.title,
      summary: item.summary,
      body: item.body,
    }))
}
export function countItems(tables: MemoryTables, tenantId: string): number {
  return ofTenant(tables.contents, tenantId).length
}

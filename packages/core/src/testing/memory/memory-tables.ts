import type { ApiKeyRecord } from '../../model/api-key.ts'
import type { CategoryRecord } from '../../model/category.ts'
import type { ContentRecord } from '../../model/content.ts'
import type { StoredResponse } from '../../model/idempotency.ts'
import type { InquiryCategoryRecord, InquiryRecord } from '../../model/inquiry.ts'
import type { PreviewTokenRecord } from '../../model/preview-token.ts'
import type { TagRecord } from '../../model/tag.ts'
import type { Tenant } from '../../model/tenant.ts'
import type { OutboxEvent, StoredEvent } from '../../port/event-outbox.ts'

/** An item as the memory store keeps it: its tags by id, so that a renamed tag shows in every item. */
export interface StoredContent extends Omit<ContentRecord, 'tags'> {
  tagIds: string[]
}

/** An idempotency key's record. */
export interface IdempotencyRow {
  request_hash: string
  state: 'in_flight' | 'completed'
  /** When the claim was made or last renewed. */
  claimed_at: string
  /** The request holding an in-flight claim. */
  holder: string
  response: StoredResponse | null
}

/**
 * The whole state of a memory database: one map per record family, keyed by id (tenants, API
 * keys, preview tokens) or by `rowKey(tenantId, id)`. Stored values are private copies that
 * are never changed in place (a write replaces them), so that a transaction can work on a
 * copy of the maps (`copyTables`) and the commit swap it in.
 */
export interface MemoryTables {
  tenants: Map<string, Tenant>
  /** Per tenant id: grows by one with every transaction that changes its content model. */
  revisions: Map<string, number>
  apiKeys: Map<string, ApiKeyRecord>
  previewTokens: Map<string, PreviewTokenRecord>
  categories: Map<string, CategoryRecord>
  tags: Map<string, TagRecord>
  contents: Map<string, StoredContent>
  inquiryCategories: Map<string, InquiryCategoryRecord>
  inquiries: Map<string, InquiryRecord>
  /** By `rowKey(tenantId, key)`. */
  idempotency: Map<string, IdempotencyRow>
  /** Instance secrets by name. */
  secrets: Map<string, string>
  /** The outbox, in commit order: the event at index `i` has `seq` `i + 1`. */
  events: StoredEvent[]
  /** `scheduledThrough` by tenant id. */
  scheduledThrough: Map<string, string>
  /** Each tenant's synonyms (lines, frozen) by tenant id. */
  synonyms: Map<string, readonly string[]>
}

/** Empty tables. */
export function emptyTables(): MemoryTables {
  return {
    tenants: new Map(), revisions: new Map(), apiKeys: new Map(), previewTokens: new Map(), categories: new Map(),
    tags: new Map(), contents: new Map(), inquiryCategories: new Map(), inquiries: new Map(), idempotency: new Map(), secrets: new Map(),
    events: [], scheduledThrough: new Map(), synonyms: new Map(),
  }
}

/** A copy of every map (the values are shared: they are never changed in place). */
export function copyTables(tables: MemoryTables): MemoryTables {
  return {
    tenants: new Map(tables.tenants), revisions: new Map(tables.revisions), apiKeys: new Map(tables.apiKeys),
    previewTokens: new Map(tables.previewTokens), categories: new Map(tables.categories), tags: new Map(tables.tags),
    contents: new Map(tables.contents), inquiryCategories: new Map(tables.inquiryCategories),
    inquiries: new Map(tables.inquiries), idempotency: new Map(tables.idempotency),
    secrets: new Map(tables.secrets), events: tables.events.slice(), scheduledThrough: new Map(tables.scheduledThrough),
    synonyms: new Map(tables.synonyms),
  }
}

/** The key of a tenant-scoped row. */
export function rowKey(tenantId: string, id: string): string {
  return `${tenantId}\u0000${id}`
}

/** The values of a tenant-scoped map that belong to the tenant. */
export function ofTenant<T extends { tenant_id: string }>(map: Map<string, T>, tenantId: string): T[] {
  return [...map.values()].filter((row) => row.tenant_id === tenantId)
}

/**
 * A value as the store keeps it: a deep copy, frozen. Stored values are handed out as they
 * are (no copy on reading): neither the caller who wrote it nor one who read it can change
 * what the store holds, and one that tries fails loudly instead of changing it for everyone.
 */
export function stored<T>(value: T): T {
  return deepFreeze(structuredClone(value))
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

/** The item as `getContent` returns it (frozen): tags with their current names, in order. */
export function toContentRecord(tables: MemoryTables, item: StoredContent): ContentRecord {
  const { tagIds, ...rest } = item
  const tags = tagIds.map((id) => {
    const tag = tables.tags.get(rowKey(item.tenant_id, id))
    if (tag === undefined) throw new Error(`memory store: item ${item.id} links to a tag ${id} that does not exist`)
    return Object.freeze({ id, name: tag.name })
  })
  return Object.freeze({ ...rest, tags: Object.freeze(tags) as ContentRecord['tags'] })
}

/** Every item of the tenant as `getContent` returns it, in id order. */
export function contentsOf(tables: MemoryTables, tenantId: string): ContentRecord[] {
  return ofTenant(tables.contents, tenantId)
    .sort((a, b) => compareText(a.id, b.id))
    .map((stored) => toContentRecord(tables, stored))
}

/** Orders strings by code unit, as every ordering of the port does. */
export function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1
}

/** Orders by `sort`, then `code` (categories, inquiry categories). */
export function bySortThenCode(a: { sort: number; code: string }, b: { sort: number; code: string }): number {
  return a.sort - b.sort || compareText(a.code, b.code)
}

/** Throws the error of a violated constraint: what a database refuses, the memory store refuses too. */
export function refuse(message: string): never {
  throw new Error(`memory store: ${message}`)
}

/** Refuses a row of a tenant that does not exist. */
export function requireTenant(tables: MemoryTables, tenantId: string): void {
  if (!tables.tenants.has(tenantId)) refuse(`no tenant ${tenantId}`)
}

/** Appends events to the outbox of `tables` (seq in commit order: writes take turns). */
export function appendEvents(tables: MemoryTables, events: readonly OutboxEvent[]): void {
  for (const event of events) {
    requireTenant(tables, event.tenant_id)
    if (tables.events.some((e) => e.id === event.id)) refuse(`event ${event.id} exists`)
    tables.events.push(stored({ ...event, seq: tables.events.length + 1 }))
  }
}

import type { ApiKeyRecord } from '../model/api-key.ts'
import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { IdempotencyClaim, IdempotencyClaimTerms, StoredResponse } from '../model/idempotency.ts'
import type { InquiryCategoryRecord, InquiryRecord, InquiryStatus } from '../model/inquiry.ts'
import type { PreviewTokenRecord } from '../model/preview-token.ts'
import type { TagRecord } from '../model/tag.ts'
import type { Tenant } from '../model/tenant.ts'
import type { ChangeFeed, FeedPosition } from './change-feed.ts'
import type { ContentQuery } from './content-query.ts'
import type { EventOutbox, EventWriter, OutboxEvent } from './event-outbox.ts'
import type { RateLimitStore } from './rate-limit-store.ts'
import type { SearchSource } from './search-source.ts'
import type { WebhookStore } from './webhook-store.ts'

/*
 * The storage port. Everything core needs from a database, and nothing more.
 *
 * Rules every adapter follows (the conformance suite in `@frontdesk/core/testing` checks them):
 * - Every method is asynchronous, even over a synchronous driver.
 * - "Not found" is `null`, never an exception. Errors a retry may cure (busy, locked) are thrown
 *   as `StorageUnavailableError`; anything else may be thrown as is (the edge maps it to a 500).
 * - Records are tenant-scoped: ids, slugs and codes are unique *within* a tenant, and a method
 *   given a tenant id never reads or writes another tenant's rows. Generated ids (`key_…`,
 *   `prv_…`) are globally unique, so keys and preview tokens are also addressable by id alone.
 * - Core decides every value (ids, versions, timestamps, normalised fields); `put*` stores the
 *   record as given, replacing any record with the same tenant and id.
 * - A committed write is durable, and visible to every process that opens the same store.
 */

/** Reads of a tenant's content model. Shared by the store and by write transactions. */
export interface ContentReader {
  getCategory(tenantId: string, id: string): Promise<CategoryRecord | null>
  getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null>
  /** All categories of the tenant, active or not, ordered by `sort`, then `code`. */
  listCategories(tenantId: string): Promise<CategoryRecord[]>

  getTag(tenantId: string, id: string): Promise<TagRecord | null>
  getTagByName(tenantId: string, name: string): Promise<TagRecord | null>
  /** All tags of the tenant, ordered by name. */
  listTags(tenantId: string): Promise<TagRecord[]>

  /** The item, whatever its status (core decides visibility). */
  getContent(tenantId: string, id: string): Promise<ContentRecord | null>
  getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null>
  /**
   * The items with these ids, whatever their status: `getContent` of each, in the order of
   * `ids` (`null` for an id that is no item of the tenant; a repeated id gives its item again),
   * read together (a search builds a page of results from its hits' ids).
   */
  getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]>
  /** One page of items as `query` describes, in its sort order. */
  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]>

  getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null>
  getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null>
  /** All inquiry categories of the tenant, active or not, ordered by `sort`, then `code`. */
  listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]>

  /** The tenant's synonyms as last set (`replaceSynonyms`), one group a line, in order; `[]` when none were. */
  getSynonyms(tenantId: string): Promise<string[]>
}

/** Writes of a tenant's content model (and the events they cause); only inside `Store.transaction`. */
export interface ContentWriter extends ContentReader, EventWriter {
  putCategory(record: CategoryRecord): Promise<void>
  putTag(record: TagRecord): Promise<void>
  /** Stores the item with its tags (by tag id, in order) and custom-field values. */
  putContent(record: ContentRecord): Promise<void>
  /** `false` when there was no such item. */
  deleteContent(tenantId: string, id: string): Promise<boolean>
  putInquiryCategory(record: InquiryCategoryRecord): Promise<void>
  /**
   * Replaces the tenant's whole set of synonyms with `lines` (core checked them: see
   * `parseSynonyms`), kept as given. Moves the tenant's revision as any write does (no change
   * feed entry: nothing is indexed again), so that every process sees the new set within 1 s.
   */
  replaceSynonyms(tenantId: string, lines: readonly string[]): Promise<void>
}

/** Tenants. */
export interface TenantStore {
  /** Fails (throws) when the code is taken; core checks first and reports it properly. */
  createTenant(tenant: Tenant): Promise<void>
  getTenant(id: string): Promise<Tenant | null>
  getTenantByCode(code: string): Promise<Tenant | null>
  /** Ordered by code. */
  listTenants(): Promise<Tenant[]>
}

/** API keys: looked up by the hash of the presented key, managed by id. */
export interface ApiKeyStore {
  createApiKey(record: ApiKeyRecord): Promise<void>
  /** The key with this hash, any tenant, with its tenant. */
  findApiKeyByHash(hash: string): Promise<{ key: ApiKeyRecord; tenant: Tenant } | null>
  getApiKey(id: string): Promise<ApiKeyRecord | null>
  /** Ordered by creation. */
  listApiKeys(tenantId: string): Promise<ApiKeyRecord[]>
  /** Sets the given columns; `false` when there is no such key. */
  updateApiKey(id: string, patch: Partial<Pick<ApiKeyRecord, 'disabled_at' | 'last_used_at' | 'rate_limit'>>): Promise<boolean>
  /** `false` when there was no such key. */
  deleteApiKey(id: string): Promise<boolean>
}

/** Preview tokens: looked up by the hash of the presented token, revoked by id. */
export interface PreviewTokenStore {
  createPreviewToken(record: PreviewTokenRecord): Promise<void>
  /** The token with this hash, any tenant (core compares the tenant). */
  findPreviewTokenByHash(hash: string): Promise<PreviewTokenRecord | null>
  getPreviewToken(id: string): Promise<PreviewTokenRecord | null>
  /** Sets `revoked_at`; `false` when there is no such token. */
  revokePreviewToken(id: string, at: string): Promise<boolean>
}

/** Inquiries and their idempotency keys. */
export interface InquiryStore {
  /**
   * Stores the inquiry durably (committed and synced per the adapter's durability setting
   * before the promise resolves). With `idempotency`, the key's record is completed with the
   * response in the same transaction: both are stored, or neither. Only while `holder` still
   * holds the key's in-flight claim: else nothing is stored and the promise rejects with
   * `IdempotencyError` `IDEMPOTENCY_IN_PROGRESS` (another request took the claim over).
   * `events` (its `inquiry.created`) are appended to the outbox in that transaction too.
   */
  insertInquiry(record: InquiryRecord, idempotency?: { key: string; holder: string; response: StoredResponse }, events?: readonly OutboxEvent[]): Promise<void>
  getInquiry(tenantId: string, id: string): Promise<InquiryRecord | null>
  /** Newest first; `before` is an inquiry id to page from. */
  listInquiries(tenantId: string, options: { status?: InquiryStatus; before?: string; limit: number }): Promise<InquiryRecord[]>

  /**
   * Atomically claims `key` for `terms.holder`, a request with `requestHash`, at `terms.now`
   * (its lease starts), across processes. A record claimed before `expiredBefore` counts as
   * absent (24 h window); an in-flight record last renewed before `staleBefore` is taken over
   * (its holder died: see `IDEMPOTENCY_LEASE_MS`).
   */
  claimIdempotencyKey(tenantId: string, key: string, requestHash: string, terms: IdempotencyClaimTerms): Promise<IdempotencyClaim>
  /**
   * Renews `holder`'s in-flight claim of `key` at `now` (its lease starts again); `false`, and
   * nothing changed, when the key is not in flight for `holder` (completed, released or taken over).
   */
  renewIdempotencyKey(tenantId: string, key: string, holder: string, now: string): Promise<boolean>
  /** Drops `holder`'s in-flight claim, whose request failed, so that a retry can run; any other record stays. */
  releaseIdempotencyKey(tenantId: string, key: string, holder: string): Promise<void>
}

/** Secrets of one installation (one database), the same for every process that opens it. */
export interface InstanceSecretStore {
  /**
   * The secret stored under `name`, storing `candidate` first when there is none yet. Atomic
   * and race-free: when several calls or processes race (two servers starting at once), exactly
   * one candidate is stored and every caller, then and after any restart, gets that one. A
   * stored secret is never replaced or deleted through the port. Core decides the names (e.g.
   * `cursor-hmac`) and makes the candidates (random, base64url); the adapter stores them as given.
   */
  instanceSecret(name: string, candidate: string): Promise<string>
}

/**
 * Sees the writes of one transaction as they are made (`TransactionOptions.observer`): what
 * lets an import index its items for search meanwhile, instead of reading them all back after
 * the commit. Its methods run inside the transaction and must not throw (a failing observer
 * would fail the write).
 */
export interface TransactionObserver {
  /** The transaction has begun; `tx` reads its state. */
  begun(tx: ContentReader): void | Promise<void>
  /** An item was written (inserted or replaced) as `record`. */
  content(record: ContentRecord): void
  /** An item was deleted. */
  contentDeleted(tenantId: string, id: string): void
  /** A category was written. */
  category(record: CategoryRecord): void
  /** A tag was written. */
  tag(record: TagRecord): void
  /**
   * Everything is written, the change feed's entries included; COMMIT comes next (it may still
   * fail). `position` is where the feed will stand once it has committed.
   */
  committing(tx: ContentReader, position: FeedPosition): void | Promise<void>
}

/** Options of `Store.transaction`. */
export interface TransactionOptions {
  /**
   * A hint that the transaction loads many records (an import). A store that declares
   * `capabilities.bulkLoad` may then do the work differently (e.g. build its secondary
   * indexes once at the end on an empty database), with the same result and the same
   * all-or-nothing commit; others ignore it.
   */
  bulk?: boolean
  /** Sees the transaction's writes (see `TransactionObserver`). */
  observer?: TransactionObserver
}

/** What a store declares it can do beyond the required port (as unstorage's driver `flags`). */
export interface StoreCapabilities {
  /** `TransactionOptions.bulk` makes a large first import faster. */
  bulkLoad?: boolean
  /** Every process on one machine shares the store's state (a SQLite file); else several machines may (PostgreSQL). */
  scope: 'machine' | 'network'
}

/** The whole storage port. */
export interface Store extends ContentReader, TenantStore, ApiKeyStore, PreviewTokenStore, InquiryStore, InstanceSecretStore, ChangeFeed, SearchSource, EventOutbox {
  /** What the store can do beyond the required port. */
  readonly capabilities: StoreCapabilities

  /**
   * Optional: token buckets every process opening this database shares (`RateLimitStore`), so
   * that rate limits hold for all of them together; closed with the store. Without it each
   * process limits alone.
   */
  readonly rateLimits?: RateLimitStore

  /** Optional: webhook endpoints and their delivery state (`WebhookStore`). Without it, webhooks cannot be used. */
  readonly webhooks?: WebhookStore

  /**
   * Runs `work` in one all-or-nothing transaction: everything it writes commits together
   * when it resolves, and nothing is written when it rejects (the rejection is passed on).
   * Reads through `tx` see the transaction's own writes. Transactions do not nest.
   */
  transaction<T>(work: (tx: ContentWriter) => Promise<T>, options?: TransactionOptions): Promise<T>

  /**
   * A number that changes whenever the tenant's categories, tags, content or synonyms change, from any
   * process. Response caches key on it. Must be cheap: it is called on every cached read.
   */
  revision(tenantId: string): Promise<number>

  /** Resolves when the store can serve requests; throws `StorageUnavailableError` when it cannot (for health checks). */
  ping(): Promise<void>

  /** Releases the store's resources. */
  close(): Promise<void>
}

import type { JsonValue } from '../model/json.ts'

/*
 * The event outbox: events (a new inquiry, content going live, changing or going away) are
 * written by the transaction that causes them, so that an event exists exactly when its change
 * committed. Which events a change causes is core's rule (`events/`); the store keeps them.
 *
 * Rules every store follows (the conformance suite in `@frontdesk/core/testing` checks them):
 * - Events appended in a transaction commit with it, or not at all.
 * - `seq` numbers events in **commit order** (as the change feed's positions): once a reader
 *   has seen an event with some `seq`, every event it has not seen yet has a greater one. Seqs
 *   are positive and increase; they may have gaps.
 */

/** The types of events (README "Webhooks"). */
export type EventType = 'inquiry.created' | 'content.published' | 'content.updated' | 'content.unpublished' | 'content.deleted'

/** An event as core makes it. */
export interface OutboxEvent {
  tenant_id: string
  /** `evt_…`, globally unique: the `webhook-id` of every delivery of it. */
  id: string
  type: EventType
  /** ISO 8601 UTC: when the change that caused it was made. */
  created_at: string
  data: { [key: string]: JsonValue }
}

/** An event as stored: with its place in commit order. */
export interface StoredEvent extends OutboxEvent {
  seq: number
}

/** What a write transaction adds to the outbox (part of `ContentWriter`). */
export interface EventWriter {
  /** Adds the events, in this order, committed with the transaction. */
  appendEvents(events: readonly OutboxEvent[]): Promise<void>
  /**
   * Up to when (ISO 8601 UTC) the tenant's scheduled publications have been announced
   * (`announceDueContent`); `null` before the first time. Read and set by core only.
   */
  scheduledThrough(tenantId: string): Promise<string | null>
  setScheduledThrough(tenantId: string, at: string): Promise<void>
  /**
   * The event type patterns of the tenant's webhook endpoints, enabled or disabled (enabling
   * one resumes with what was committed meanwhile); `null` when the store keeps no endpoints.
   * Core writes an event only when some pattern takes it (or on `null`), so an import into a
   * tenant nobody listens to pays nothing for its events. Endpoints are created under the same
   * writer lock as this transaction (SQLite's single writer; PostgreSQL's `WRITER_LOCK`): one
   * created before this transaction began is listed, and one created later commits after it,
   * so an endpoint never misses an event committed after its own commit.
   */
  eventSubscriptions(tenantId: string): Promise<readonly string[] | null>
}

/** Reads of the outbox (part of `Store`). */
export interface EventOutbox {
  /** At most `limit` events with `seq > after`, in commit order; only the tenant's when given. */
  readEvents(after: number, limit: number, tenantId?: string): Promise<StoredEvent[]>
  /** The tenant's event with this id, or `null`. */
  getEvent(tenantId: string, id: string): Promise<StoredEvent | null>
  /** The greatest `seq` committed (0 when none). */
  lastEventSeq(): Promise<number>
  /**
   * For every tenant with a published item whose `published_at` is at or before `now` (ISO
   * 8601), the greatest such `published_at`, by tenant id, in one read whatever the number of
   * tenants. Categories are not looked at: it tells the scheduler which tenants may have
   * something to announce (`DueContentAnnouncer`), and `announceDueContent` decides.
   */
  newestPublications(now: string): Promise<Map<string, string>>
}

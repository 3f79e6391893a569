import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'

/*
 * When a content item counts as announced (its `content.published` sent, no `unpublished` or
 * `deleted` since): the one rule every content event derives from.
 *
 * The public sees an item from its `published_at` on (`visibility.ts`), so visibility changes
 * by itself as time passes; events cannot, they are written by transactions. An item counts as
 * announced when it is publicly visible as of the last moment something announced it:
 * - a write of the item or of its category (core sets their `updated_at` to the write's time,
 *   and the transaction announces what is visible then), or
 * - the tenant's scheduler (`announceDueContent`), which has announced every publication up to
 *   the tenant's `scheduledThrough`.
 * So: published, category active, and `published_at ≤ max(scheduledThrough, item.updated_at,
 * category.updated_at)`. The rule depends on records only, never on a transaction's clock, so
 * any process evaluates it alike, a rewrite that changes nothing announces nothing, and a
 * publication the scheduler has not reached yet is announced once, by whichever comes first.
 */

/** What of an item the rule reads. */
export type AnnouncedItem = Pick<ContentRecord, 'category_id' | 'status' | 'published_at' | 'updated_at'>

/** Whether `item` (of `category`, `null` when it has none) is announced, given the tenant's `scheduledThrough`. */
export function isAnnounced(item: AnnouncedItem, category: Pick<CategoryRecord, 'id' | 'active' | 'updated_at'> | null, scheduledThrough: string | null): boolean {
  if (category === null || category.id !== item.category_id || !category.active) return false
  if (item.status !== 'published' || item.published_at === null) return false
  const since = Date.parse(item.published_at)
  if (Number.isNaN(since)) return false
  const through = Math.max(
    scheduledThrough === null ? Number.NEGATIVE_INFINITY : Date.parse(scheduledThrough),
    Date.parse(item.updated_at),
    Date.parse(category.updated_at),
  )
  return since <= through
}

/**
 * Whether the scheduler, moving `scheduledThrough` from `from` to `to`, announces `item`: it
 * is visible at `to` and was not announced before.
 */
export function becomesDue(item: AnnouncedItem, category: Pick<CategoryRecord, 'id' | 'active' | 'updated_at'> | null, from: string | null, to: string): boolean {
  return !isAnnounced(item, category, from) && isAnnounced(item, category, to)
}

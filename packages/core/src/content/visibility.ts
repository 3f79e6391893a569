import { isoAt } from '../app/clock.ts'
import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord, ContentStatus } from '../model/content.ts'
import type { PreviewTarget } from '../model/preview-token.ts'
import type { ContentVisibility } from '../port/content-query.ts'

/*
 * The one place that decides which content a request may see (README "Content list", "Preview flow"):
 * - the public sees an item when it is `published`, its `published_at` is not in the future,
 *   and its category is active (a future `published_at` is scheduled and appears by itself);
 * - a content-bound preview token also opens that one item, whatever its status or category;
 * - a category-bound preview token also opens every item of that category.
 * Detail reads check a record with `isContentVisible`; lists hand the same rule to the store
 * as `ContentQuery.visibility` (built by `listVisibility`).
 *
 * The public rule is defined once, by `visibleSince` and `isVisibleAt` below. Fast paths keep
 * compiled forms of it — the SQL clause of a store's list query, the search engine's typed
 * array of `visibleSince` values and its bit set of eligible items, a search cache's parsed
 * date — each tested against these two functions.
 */

/** What of an item decides when the public may see it, its category aside. */
export type Publication = Pick<ContentRecord, 'status' | 'published_at'>

/**
 * From when (ms since the epoch) the public sees the item, provided its category is active:
 * `published_at` for a published item; `NaN` (never) for any other status, no date, or a date
 * that does not parse. Core stores `published_at` only in its canonical ISO 8601 UTC form
 * (`2025-06-20T12:00:00.000Z`), whose text order is its time order, so a store may compare the
 * text with `now` in the same form.
 */
export function visibleSince(item: Publication): number {
  if (item.status !== 'published' || item.published_at === null) return Number.NaN
  return Date.parse(item.published_at)
}

/**
 * README "Content list": the public sees an item at `now` (ms) when its category is active and the
 * moment `visibleSince` gave for it has come (`NaN` never comes).
 */
export function isVisibleAt(since: number, categoryActive: boolean, now: number): boolean {
  return categoryActive && since <= now
}

/** Whether the public may see `content` (of `category`, which must be the item's) at `now` (ms). */
export function isPubliclyVisible(
  content: Publication & Pick<ContentRecord, 'category_id'>,
  category: Pick<CategoryRecord, 'id' | 'active'> | null,
  now: number,
): boolean {
  return category !== null && category.id === content.category_id && isVisibleAt(visibleSince(content), category.active, now)
}

/** Whether a request holding `preview` (or none) may see `content` in detail. */
export function isContentVisible(content: ContentRecord, category: CategoryRecord | null, now: number, preview: PreviewTarget | null): boolean {
  if (preview?.kind === 'content' && preview.id === content.id) return true
  if (preview?.kind === 'category' && preview.id === content.category_id) return true
  return isPubliclyVisible(content, category, now)
}

/**
 * The visibility of a content list at `now` (ms). A category-bound preview token widens the
 * list only when the list is filtered to exactly that category; a content-bound token never
 * widens a list (it opens its item in detail only).
 */
export function listVisibility(now: number, preview: PreviewTarget | null, categoryFilter: string | null): ContentVisibility {
  const visibility: ContentVisibility = { kind: 'public', now: isoAt(now) }
  if (preview?.kind === 'category' && categoryFilter === preview.id) visibility.previewCategoryId = preview.id
  return visibility
}

/** Whether a category appears in the categories list and has a detail (only active ones). */
export function isCategoryVisible(category: CategoryRecord): boolean {
  return category.active
}

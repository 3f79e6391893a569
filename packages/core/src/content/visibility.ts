import { isoAt } from '../app/clock.ts'
import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { PreviewTarget } from '../model/preview-token.ts'
import type { ContentVisibility } from '../port/content-query.ts'

/*
 * The one place that decides which content a request may see (CONTRACT §4, §7):
 * - the public sees an item when it is `published`, its `published_at` is not in the future,
 *   and its category is active (a future `published_at` is scheduled and appears by itself);
 * - a content-bound preview token also opens that one item, whatever its status or category;
 * - a category-bound preview token also opens every item of that category.
 * Detail reads check a record with `isContentVisible`; lists hand the same rule to the store
 * as `ContentQuery.visibility` (built by `listVisibility`).
 */

/** Whether the public may see `content` (of `category`) at `now` (ms). */
export function isPubliclyVisible(content: ContentRecord, category: CategoryRecord | null, now: number): boolean {
  if (content.status !== 'published' || content.published_at === null) return false
  if (category === null || !category.active || category.id !== content.category_id) return false
  return Date.parse(content.published_at) <= now
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

import type { ContentVisibility } from '@frontdesk/core'
import type { SqlValue } from './content-filters.ts'

/** How `published_at <= now` is written: see `contentFilters`. */
export type NowBound = 'index' | 'omit' | 'filter'

/**
 * Core's public visibility rule (`isPubliclyVisible`, from `visibleSince` and `isVisibleAt`)
 * compiled to SQL over `contents c` and its category `cat`: published, `published_at` not after
 * `now`, category active. Core stores `published_at` and gives `now` in the same canonical ISO
 * form, whose text order is time order, and a NULL `published_at` compares as nothing (never
 * visible), so the text comparison is the rule. With `previewCategoryId`, every item of that
 * category is visible too. A test holds the clause against core's function.
 */
export function visibilityClause(visibility: Extract<ContentVisibility, { kind: 'public' }>, nowBound: NowBound): { sql: string; params: SqlValue[] } {
  if (visibility.previewCategoryId === undefined) {
    const now = { index: ' AND c.published_at <= ?', filter: ' AND +c.published_at <= ?', omit: '' }[nowBound]
    return { sql: `c.status = 'published'${now} AND cat.active = 1`, params: nowBound === 'omit' ? [] : [visibility.now] }
  }
  return {
    sql: `((c.status = 'published' AND c.published_at <= ? AND cat.active = 1) OR c.category_id = ?)`,
    params: [visibility.now, visibility.previewCategoryId],
  }
}

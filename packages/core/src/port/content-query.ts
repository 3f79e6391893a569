import type { FieldDefinition, FieldValue } from '../model/category.ts'

/** The order of a content list. Ties are always broken by `id` in the same direction. */
export interface ContentSort {
  /** A column, or a custom field (its values; items lacking the field come last in both directions). */
  key: 'published_at' | 'title' | 'updated_at' | 'id' | { field: FieldDefinition }
  direction: 'asc' | 'desc'
}

/** Which items a query may return. Decided by core (`visibility.ts`), carried out by the adapter. */
export type ContentVisibility =
  /** Every item, whatever its status (export, operator commands). */
  | { kind: 'all' }
  /**
   * What the public sees at `now`: status `published`, `published_at <= now`, category active.
   * With `previewCategoryId`, every item of that category is visible too, whatever its status
   * and whether the category is active.
   */
  | { kind: 'public'; now: string; previewCategoryId?: string }

/**
 * A page of content, as the storage port receives it. Every field is already validated and
 * resolved by core; the adapter translates it into its query language and decides nothing.
 */
export interface ContentQuery {
  visibility: ContentVisibility
  /** Only items of one of these categories (absent = any category). */
  categoryIds?: string[]
  /** Items carrying every one of these tag names (AND). */
  tagNames?: string[]
  /** Items carrying every one of these tag ids (AND). */
  tagIds?: string[]
  /**
   * Items whose custom field equals the value exactly (AND over the list). The value already
   * has the field's type: a number for `number`, a boolean for `boolean`, a string otherwise
   * (dates normalised as stored, see `normalizeFieldValue`).
   */
  fieldEquals?: { field: FieldDefinition; value: FieldValue }[]
  sort: ContentSort
  /**
   * Keyset position: return only items strictly after the item with this sort value and id
   * in `sort` order. `value` is `null` for an item lacking a custom sort field.
   */
  after?: { value: string | number | boolean | null; id: string }
  /**
   * `summary`: only list items will be shown, so a store may return each record with an empty
   * `body` (`''`), `meta` (`{}`) and `fields` (`{}`), which spares reading the big columns of a
   * page. Never with a custom-field sort (its cursor needs the field's value). Default: whole records.
   */
  view?: 'summary'
  /** At most this many items (core asks for one more than the page to learn `has_more`). */
  limit: number
}

import type { FieldValue } from './category.ts'
import type { JsonValue } from './json.ts'
import type { Tag } from './tag.ts'

/** `draft` (the default) or `published`; a published item with a future `published_at` is scheduled. */
export type ContentStatus = 'draft' | 'published'

/** A content item as stored. */
export interface ContentRecord {
  tenant_id: string
  id: string
  /** Unique per tenant. */
  slug: string
  title: string
  category_id: string
  status: ContentStatus
  /** ISO 8601 UTC; `null` only for drafts that were never given one. */
  published_at: string | null
  author_name: string
  /** In the order they were given. */
  tags: Tag[]
  summary: string
  /** HTML. */
  body: string
  /** Custom-field values keyed by field **id** (names may be renamed; ids stay). */
  fields: Record<string, FieldValue>
  /** Always holds `og_title` and `og_description`; further keys from import pass through. */
  meta: Record<string, JsonValue>
  /** Starts at 1, grows by one on every change. */
  version: number
  created_at: string
  updated_at: string
}

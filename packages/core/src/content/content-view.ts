import type { CategoryRecord, FieldValue } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { JsonValue } from '../model/json.ts'

/** An item of `GET /v1/cms/contents` (SPEC.md "Content list item"). */
export interface ContentListItem {
  id: string
  title: string
  slug: string
  category_id: string
  category_code: string
  category_name: string
  /** `null` only for a previewed draft that was never given a date. */
  published_at: string | null
  author_name: string
  /** Tag names, in the item's order. */
  tags: string[]
  summary: string
}

/** `GET /v1/cms/contents/{id}` and `/slug/{slug}` (SPEC.md "Content detail"). */
export interface ContentDetail {
  id: string
  title: string
  slug: string
  category_id: string
  category_code: string
  category_name: string
  /** `body` (HTML), `summary`, then every custom field of the category by name (`null` when unset). */
  content: { body: string; summary: string; [field: string]: FieldValue | null }
  published_at: string | null
  version: number
  author_name: string
  tags: string[]
  /** `og_title` and `og_description` always, then any further keys given on import. */
  meta: { og_title: string; og_description: string; [key: string]: JsonValue }
}

/** The list view of an item of `category`. */
export function toContentListItem(content: ContentRecord, category: CategoryRecord): ContentListItem {
  return {
    id: content.id,
    title: content.title,
    slug: content.slug,
    category_id: content.category_id,
    category_code: category.code,
    category_name: category.name,
    published_at: content.published_at,
    author_name: content.author_name,
    tags: content.tags.map((tag) => tag.name),
    summary: content.summary,
  }
}

/**
 * The detail view of an item of `category`. Custom fields are keyed by their current name
 * (values are stored by field id, so a renamed field keeps its values); a field named `body`
 * or `summary` cannot shadow those two keys; values of fields no longer defined are left out.
 */
export function toContentDetail(content: ContentRecord, category: CategoryRecord): ContentDetail {
  const fields: ContentDetail['content'] = { body: content.body, summary: content.summary }
  for (const field of category.fields) {
    if (field.name === 'body' || field.name === 'summary') continue
    fields[field.name] = content.fields[field.id] ?? null
  }
  const { og_title, og_description, ...rest } = content.meta
  return {
    id: content.id,
    title: content.title,
    slug: content.slug,
    category_id: content.category_id,
    category_code: category.code,
    category_name: category.name,
    content: fields,
    published_at: content.published_at,
    version: content.version,
    author_name: content.author_name,
    tags: content.tags.map((tag) => tag.name),
    meta: {
      og_title: typeof og_title === 'string' ? og_title : '',
      og_description: typeof og_description === 'string' ? og_description : '',
      ...rest,
    },
  }
}

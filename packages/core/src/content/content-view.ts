import type * as v from 'valibot'
import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { ContentDetailSchema, ContentListItemSchema } from '../response/response-bodies.ts'

/** An item of `GET /v1/cms/contents` (docs/API.md "ContentListItem"); see `ContentListItemSchema`. */
export type ContentListItem = v.InferOutput<typeof ContentListItemSchema>

/** `GET /v1/cms/contents/{id}` and `/slug/{slug}` (docs/API.md "ContentDetail"); see `ContentDetailSchema`. */
export type ContentDetail = v.InferOutput<typeof ContentDetailSchema>

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

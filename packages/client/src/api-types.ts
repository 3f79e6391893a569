/** A custom-field value: text, select and date (ISO 8601) are strings, number a number, boolean a boolean. */
export type FieldValue = string | number | boolean

/** Any JSON value (extra `meta` keys given on import are passed through as they are). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** An item of `GET /v1/cms/contents`. */
export interface ContentListItem {
  id: string
  title: string
  slug: string
  category_id: string
  category_code: string
  category_name: string
  /** ISO 8601 UTC; `null` only for a previewed draft that was never given a date. */
  published_at: string | null
  author_name: string
  /** Tag names. */
  tags: string[]
  summary: string
}

/** `GET /v1/cms/contents`: one page. */
export interface ContentList {
  items: ContentListItem[]
  pagination: {
    count: number
    /** Pass as `cursor` for the next page; `null` when `has_more` is false. */
    next_cursor: string | null
    has_more: boolean
  }
}

/** `GET /v1/cms/contents/{id}` and `/slug/{slug}`. */
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
  /** The content item's version (1, 2, …), not an API version. */
  version: number
  author_name: string
  tags: string[]
  meta: { og_title: string; og_description: string; [key: string]: JsonValue }
}

/** An item of `GET /v1/cms/categories`. */
export interface Category {
  id: string
  code: string
  name: string
  description: string
  sort: number
}

/** A custom-field definition of a category. */
export interface FieldDefinition {
  id: string
  name: string
  type: 'text' | 'number' | 'date' | 'boolean' | 'select'
  /** Present for `select` only. */
  options?: string[]
  required: boolean
}

/** `GET /v1/cms/categories/{id}`. */
export interface CategoryDetail extends Category {
  fields: FieldDefinition[]
}

/** The query of `GET /v1/cms/contents`. Arrays are sent comma-separated. */
export interface ListContentsParams {
  category_code?: string
  category_id?: string
  /** Tag names; an item must carry all (AND). */
  tags?: string[]
  /** Tag ids; an item must carry all (AND). */
  tag_ids?: string[]
  /** Custom-field exact matches by field id, at most 3: `{ fld_x: 'value' }`. */
  field_filters?: Record<string, string | number | boolean>
  /** E.g. `published_at:desc` (default), `title:asc`, `custom_price:asc`. */
  sort?: string
  /** 1–100, default 20. */
  limit?: number
  cursor?: string
}

/** An operator object of a search `filter` entry. */
export interface FilterOperators {
  eq?: FieldValue
  gt?: FieldValue
  gte?: FieldValue
  lt?: FieldValue
  lte?: FieldValue
  in?: FieldValue[]
}

/** The body of `POST /v1/cms/search`. */
export interface SearchRequest {
  /** 1–500 characters after trimming. */
  query: string
  category_id?: string
  /** Any may match (OR). */
  tags?: string[]
  /** `relevance` (default), `published_at:desc|asc`, `custom_<field>:asc|desc`. */
  sort?: string
  from?: number
  size?: number
  /** Keys `custom_<field>`; a plain value means `eq`. */
  filter?: Record<string, FieldValue | FilterOperators>
}

/** An item of a search reply. */
export interface SearchResultItem {
  id: string
  title: string
  slug: string
  category_id: string
  published_at: string
  author_name: string
  tags: string[]
  score: number
  /** Matched terms wrapped in `<em>`; everything else HTML-escaped. */
  highlight: { title: string[]; search_text: string[] }
  /** Every custom field of the item, keyed `custom_<name>`. */
  custom_fields: Record<string, FieldValue>
}

/** `POST /v1/cms/search`. */
export interface SearchResponse {
  items: SearchResultItem[]
  pagination: { total: number; from: number; size: number; has_more: boolean }
}

/** The body of `POST /v1/inquiries`. */
export interface InquiryInput {
  category_code: string
  title: string
  content: string
  /** 1 low, 2 medium (default), 3 high. */
  priority?: 1 | 2 | 3
  inquirer_name: string
  inquirer_email: string
  inquirer_phone?: string
  inquirer_company?: string
  inquirer_department?: string
}

/** `201` of `POST /v1/inquiries`. */
export interface InquiryCreated {
  id: string
  category_code: string
  title: string
  /** `open` on creation. */
  status: string
  created_at: string
  /** The inquiry category's confirmation text. */
  message: string
}

/** An item of `GET /v1/inquiries/categories`. */
export interface InquiryCategory {
  code: string
  name: string
  description: string
}

/** One invalid field of a 400 `VALIDATION_ERROR`. */
export interface ErrorDetail {
  field: string
  message: string
}

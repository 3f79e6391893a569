// Generated from the OpenAPI document's response schemas (`components.schemas`), which
// @frontdesk/core defines once (`RESPONSE_BODIES`): change them there and run
// `npm run generate:client`; a test fails while this file is out of date.

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
  /** `null` only for a previewed draft that was never given a date. */
  published_at: string | null
  author_name: string
  /** Tag names, in the item’s order. */
  tags: string[]
  summary: string
}

/** `GET /v1/cms/contents`: one page. */
export interface ContentList {
  items: ContentListItem[]
  pagination: {
    /** Items in this page. */
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
  /** `body` (HTML) and `summary`, then every custom field of the category by name (`null` when unset). */
  content: {
    body: string
    summary: string
    [key: string]: FieldValue | null
  }
  /** `null` only for a previewed draft that was never given a date. */
  published_at: string | null
  /** Version of this content item (starts at 1, grows by one on every change), not an API version. */
  version: number
  author_name: string
  /** Tag names, in the item’s order. */
  tags: string[]
  /** `og_title` and `og_description` always (empty string when unset), then any further keys given on import. */
  meta: {
    og_title: string
    og_description: string
    [key: string]: JsonValue
  }
}

/** An item of `GET /v1/cms/categories`. */
export interface Category {
  id: string
  code: string
  name: string
  description: string
  sort: number
}

/** `GET /v1/cms/categories`: the active categories. */
export interface CategoryList {
  items: Category[]
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

/** `GET /v1/cms/categories/{id}`: the category and its custom-field definitions, in their defined order. */
export interface CategoryDetail {
  id: string
  code: string
  name: string
  description: string
  sort: number
  fields: FieldDefinition[]
}

/** An item of a search reply. */
export interface SearchResultItem {
  id: string
  title: string
  slug: string
  category_id: string
  /** ISO 8601 UTC timestamp */
  published_at: string
  author_name: string
  /** Tag names, in the item’s order. */
  tags: string[]
  /** Relevance score (higher first; comparable within one search only): its integer part counts the query words by kind of match (for n words, each as typed (n+1)^4, a synonym (n+1)^3, a stem form (n+1)^2, a typo n+1, a prefix 1), its fraction the BM25+ relevance of the words, summed and scaled below 1 (each word at most 2047 / (2048 n)). */
  score: number
  /** Matched terms are wrapped in `<em>` tags; everything else is HTML-escaped text. */
  highlight: {
    /** The title with every matched term wrapped in `<em>…</em>`; the rest is HTML-escaped. */
    title: string[]
    /** Up to 3 fragments of summary/body text around matches, HTML-escaped except for `<em>`. */
    search_text: string[]
  }
  /** Every custom field of the item, keyed `custom_<name>`. */
  custom_fields: { [key: string]: FieldValue }
}

/** `POST /v1/cms/search`: one page of results. */
export interface SearchResponse {
  items: SearchResultItem[]
  pagination: {
    /** Exact number of matches. */
    total: number
    from: number
    size: number
    has_more: boolean
  }
}

/** `201` of `POST /v1/inquiries`. */
export interface InquiryCreated {
  id: string
  category_code: string
  title: string
  /** A new inquiry is `open`. */
  status: 'open'
  /** ISO 8601 UTC timestamp */
  created_at: string
  /** Confirmation text of the inquiry category. */
  message: string
}

/** An item of `GET /v1/inquiries/categories`. */
export interface InquiryCategory {
  code: string
  name: string
  description: string
}

/** `GET /v1/inquiries/categories`: the active inquiry categories. */
export interface InquiryCategoryList {
  categories: InquiryCategory[]
}

/** One invalid field of a 400 `VALIDATION_ERROR`. */
export interface ErrorDetail {
  /** The request field, query parameter or header at fault (dot path, e.g. `filter.custom_price.gte`; `body`, `cursor`, `query`). */
  field: string
  /** Human-readable reason. */
  message: string
}

/** `GET /healthz`. */
export interface Health {
  status: 'ok' | 'unavailable'
}

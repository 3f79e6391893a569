import type { FieldValue } from './api-types.ts'

// The requests' shapes, written by hand: the server's request schemas describe query text and
// bodies as received (comma lists, numbers as text), the client takes friendlier values.

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
  /** The category by code, as in `contents.list`; with `category_id` too, both must name the same one. */
  category_code?: string
  /** Any may match (OR). */
  tags?: string[]
  /** `relevance` (default), `published_at:desc|asc`, `custom_<field>:asc|desc`. */
  sort?: string
  from?: number
  size?: number
  /** Keys `custom_<field>`; a plain value means `eq`. */
  filter?: Record<string, FieldValue | FilterOperators>
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

import type { JsonSchema } from './json-schema.ts'

const string: JsonSchema = { type: 'string' }
const timestamp: JsonSchema = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC timestamp' }
const id: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' }
const tags: JsonSchema = { type: 'array', items: string, description: 'Tag names, in the item’s order.' }
const fieldValue: JsonSchema = {
  type: ['string', 'number', 'boolean'],
  description: 'A custom-field value: text, select and date (ISO 8601) are strings, number a number, boolean a boolean.',
}

/** A closed object: every property listed is required and nothing else may appear. */
function closed(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  }
}

/**
 * The response bodies of `/v1`, as JSON Schema (draft 2020-12) for the OpenAPI document's
 * `components.schemas`. Objects are closed (`additionalProperties: false`) wherever SPEC.md
 * fixes the keys, so that a field added to a response without documenting it fails the
 * conformance test; `content` and `meta` of a content detail are open by design.
 */
export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  ContentListItem: closed({
    id,
    title: string,
    slug: string,
    category_id: id,
    category_code: string,
    category_name: string,
    published_at: { anyOf: [timestamp, { type: 'null' }], description: '`null` only for a previewed draft that was never given a date.' },
    author_name: string,
    tags,
    summary: string,
  }),
  ContentList: closed({
    items: { type: 'array', items: { $ref: '#/components/schemas/ContentListItem' } },
    pagination: closed({
      count: { type: 'integer', minimum: 0, description: 'Items in this page.' },
      next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; `null` when `has_more` is false.' },
      has_more: { type: 'boolean' },
    }),
  }),
  ContentDetail: closed({
    id,
    title: string,
    slug: string,
    category_id: id,
    category_code: string,
    category_name: string,
    content: {
      type: 'object',
      description: '`body` (HTML) and `summary`, then every custom field of the category by name (`null` when unset).',
      properties: { body: string, summary: string },
      required: ['body', 'summary'],
      additionalProperties: { anyOf: [fieldValue, { type: 'null' }] },
    },
    published_at: { anyOf: [timestamp, { type: 'null' }], description: '`null` only for a previewed draft that was never given a date.' },
    version: { type: 'integer', minimum: 1, description: 'Version of this content item (starts at 1, grows by one on every change).' },
    author_name: string,
    tags,
    meta: {
      type: 'object',
      description: '`og_title` and `og_description` always (empty string when unset), then any further keys given on import.',
      properties: { og_title: string, og_description: string },
      required: ['og_title', 'og_description'],
    },
  }),
  Category: closed({ id, code: string, name: string, description: string, sort: { type: 'number' } }),
  CategoryList: closed({ items: { type: 'array', items: { $ref: '#/components/schemas/Category' } } }),
  FieldDefinition: {
    type: 'object',
    properties: {
      id,
      name: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,62}$' },
      type: { enum: ['text', 'number', 'date', 'boolean', 'select'] },
      options: { type: 'array', items: string, description: 'Present for `select` only.' },
      required: { type: 'boolean' },
    },
    required: ['id', 'name', 'type', 'required'],
    additionalProperties: false,
  },
  CategoryDetail: closed({
    id,
    code: string,
    name: string,
    description: string,
    sort: { type: 'number' },
    fields: { type: 'array', items: { $ref: '#/components/schemas/FieldDefinition' } },
  }),
  SearchResultItem: closed({
    id,
    title: string,
    slug: string,
    category_id: id,
    published_at: timestamp,
    author_name: string,
    tags,
    score: { type: 'number', description: 'Relevance score (higher is better).' },
    highlight: closed(
      {
        title: { type: 'array', items: string, description: 'The title with every matched term wrapped in `<em>…</em>`; the rest is HTML-escaped.' },
        search_text: { type: 'array', items: string, maxItems: 3, description: 'Up to 3 fragments of summary/body text around matches, HTML-escaped except for `<em>`.' },
      },
      'Matched terms are wrapped in <em> tags; everything else is HTML-escaped text.',
    ),
    custom_fields: {
      type: 'object',
      description: 'Every custom field of the item, keyed `custom_<name>`.',
      propertyNames: { pattern: '^custom_[a-z][a-z0-9_]{0,62}$' },
      additionalProperties: fieldValue,
    },
  }),
  SearchResponse: closed({
    items: { type: 'array', items: { $ref: '#/components/schemas/SearchResultItem' } },
    pagination: closed({
      total: { type: 'integer', minimum: 0, description: 'Exact number of matches.' },
      from: { type: 'integer', minimum: 0 },
      size: { type: 'integer', minimum: 1 },
      has_more: { type: 'boolean' },
    }),
  }),
  InquiryCreated: closed({
    id,
    category_code: string,
    title: string,
    status: { const: 'open', description: 'A new inquiry is `open`.' },
    created_at: timestamp,
    message: { type: 'string', description: 'Confirmation text of the inquiry category.' },
  }),
  InquiryCategory: closed({ code: string, name: string, description: string }),
  InquiryCategoryList: closed({ categories: { type: 'array', items: { $ref: '#/components/schemas/InquiryCategory' } } }),
  ErrorDetail: closed({
    field: { type: 'string', description: 'The request field, query parameter or header at fault (dot path, e.g. `filter.custom_price.gte`; `body`, `cursor`, `query`).' },
    message: { type: 'string', description: 'Human-readable reason.' },
  }),
  Health: closed({ status: { enum: ['ok', 'unavailable'] } }),
}

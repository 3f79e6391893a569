import * as v from 'valibot'
import type { JsonValue as JsonValueType } from '../model/json.ts'

/*
 * The response bodies of `/v1`, defined once. Core's view types are inferred from these
 * schemas (`v.InferOutput`), `@frontdesk/http` turns them into the OpenAPI document's
 * `components.schemas`, and the client's `api-types.ts` is generated from that document
 * (`npm run generate:client`). They describe what core builds; requests are never checked
 * against them at run time. Objects are strict wherever the API fixes the keys, so that a
 * field added to a response without documenting it fails the OpenAPI conformance test;
 * `content` and `meta` of a content detail are open by design.
 */

const text = v.string()
const id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/))
const timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 UTC timestamp'))
const publishedAt = v.pipe(v.nullable(timestamp), v.description('`null` only for a previewed draft that was never given a date.'))
const tagNames = v.pipe(v.array(text), v.description('Tag names, in the item’s order.'))
const fieldName = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,62}$/))

/** A custom-field value. */
export const FieldValueSchema = v.pipe(
  v.union([v.string(), v.number(), v.boolean()]),
  v.description('A custom-field value: text, select and date (ISO 8601) are strings, number a number, boolean a boolean.'),
)

/** Any JSON value (extra `meta` keys given on import are passed through as they are). */
export const JsonValueSchema: v.GenericSchema<JsonValueType> = v.pipe(
  v.union([
    v.string(),
    v.number(),
    v.boolean(),
    v.null(),
    v.array(v.lazy(() => JsonValueSchema)),
    v.record(v.string(), v.lazy(() => JsonValueSchema)),
  ]),
  v.description('Any JSON value (extra `meta` keys given on import are passed through as they are).'),
)

/** An item of `GET /v1/cms/contents` (the API reference ("Content list item")). */
export const ContentListItemSchema = v.pipe(
  v.strictObject({
    id,
    title: text,
    slug: text,
    category_id: id,
    category_code: text,
    category_name: text,
    published_at: publishedAt,
    author_name: text,
    tags: tagNames,
    summary: text,
  }),
  v.description('An item of `GET /v1/cms/contents`.'),
)

/** `GET /v1/cms/contents`: one page. */
export const ContentListSchema = v.pipe(
  v.strictObject({
    items: v.array(ContentListItemSchema),
    pagination: v.strictObject({
      count: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Items in this page.')),
      next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; `null` when `has_more` is false.')),
      has_more: v.boolean(),
    }),
  }),
  v.description('`GET /v1/cms/contents`: one page.'),
)

/** `GET /v1/cms/contents/{id}` and `/slug/{slug}` (the API reference ("Content detail")). */
export const ContentDetailSchema = v.pipe(
  v.strictObject({
    id,
    title: text,
    slug: text,
    category_id: id,
    category_code: text,
    category_name: text,
    content: v.pipe(
      v.objectWithRest({ body: text, summary: text }, v.nullable(FieldValueSchema)),
      v.description('`body` (HTML) and `summary`, then every custom field of the category by name (`null` when unset).'),
    ),
    published_at: publishedAt,
    version: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Version of this content item (starts at 1, grows by one on every change), not an API version.')),
    author_name: text,
    tags: tagNames,
    meta: v.pipe(
      v.objectWithRest({ og_title: text, og_description: text }, JsonValueSchema),
      v.description('`og_title` and `og_description` always (empty string when unset), then any further keys given on import.'),
    ),
  }),
  v.description('`GET /v1/cms/contents/{id}` and `/slug/{slug}`.'),
)

/** An item of `GET /v1/cms/categories` (the API reference ("Category")). */
export const CategorySchema = v.pipe(
  v.strictObject({ id, code: text, name: text, description: text, sort: v.number() }),
  v.description('An item of `GET /v1/cms/categories`.'),
)

/** `GET /v1/cms/categories`. */
export const CategoryListSchema = v.pipe(v.strictObject({ items: v.array(CategorySchema) }), v.description('`GET /v1/cms/categories`: the active categories.'))

/** A custom-field definition as `GET /v1/cms/categories/{id}` shows it. */
export const FieldDefinitionSchema = v.pipe(
  v.strictObject({
    id,
    name: fieldName,
    type: v.picklist(['text', 'number', 'date', 'boolean', 'select']),
    options: v.pipe(v.optional(v.array(text)), v.description('Present for `select` only.')),
    required: v.boolean(),
  }),
  v.description('A custom-field definition of a category.'),
)

/** `GET /v1/cms/categories/{id}`: the category and its custom-field definitions. */
export const CategoryDetailSchema = v.pipe(
  v.strictObject({ ...CategorySchema.entries, fields: v.array(FieldDefinitionSchema) }),
  v.description('`GET /v1/cms/categories/{id}`: the category and its custom-field definitions, in their defined order.'),
)

/** One item of a search reply (the API reference ("Search result item")). */
export const SearchResultItemSchema = v.pipe(
  v.strictObject({
    id,
    title: text,
    slug: text,
    category_id: id,
    published_at: timestamp,
    author_name: text,
    tags: tagNames,
    score: v.pipe(v.number(), v.description('Relevance score (higher first; comparable within one search only): its integer part counts the query words by kind of match (for n words, each as typed (n+1)^4, a synonym (n+1)^3, a stem form (n+1)^2, a typo n+1, a prefix 1), its fraction the BM25+ relevance of the words, summed and scaled below 1 (each word at most 2047 / (2048 n)).')),
    highlight: v.pipe(
      v.strictObject({
        title: v.pipe(v.array(text), v.description('The title with every matched term wrapped in `<em>…</em>`; the rest is HTML-escaped.')),
        search_text: v.pipe(v.array(text), v.maxLength(3), v.description('Up to 3 fragments of summary/body text around matches, HTML-escaped except for `<em>`.')),
      }),
      v.description('Matched terms are wrapped in `<em>` tags; everything else is HTML-escaped text.'),
    ),
    custom_fields: v.pipe(
      v.record(v.pipe(v.string(), v.regex(/^custom_[a-z][a-z0-9_]{0,62}$/)), FieldValueSchema),
      v.description('Every custom field of the item, keyed `custom_<name>`.'),
    ),
  }),
  v.description('An item of a search reply.'),
)

/** The body of a `POST /v1/cms/search` reply. */
export const SearchResponseSchema = v.pipe(
  v.strictObject({
    items: v.array(SearchResultItemSchema),
    pagination: v.strictObject({
      total: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Exact number of matches.')),
      from: v.pipe(v.number(), v.integer(), v.minValue(0)),
      size: v.pipe(v.number(), v.integer(), v.minValue(1)),
      has_more: v.boolean(),
    }),
  }),
  v.description('`POST /v1/cms/search`: one page of results.'),
)

/** The body of `201 Created` for `POST /v1/inquiries` (the API reference ("Inquiry (creation response)")). */
export const InquiryCreatedSchema = v.pipe(
  v.strictObject({
    id,
    category_code: text,
    title: text,
    status: v.pipe(v.literal('open'), v.description('A new inquiry is `open`.')),
    created_at: timestamp,
    message: v.pipe(v.string(), v.description('Confirmation text of the inquiry category.')),
  }),
  v.description('`201` of `POST /v1/inquiries`.'),
)

/** One entry of `GET /v1/inquiries/categories` (the API reference ("Inquiry category")). */
export const InquiryCategorySchema = v.pipe(v.strictObject({ code: text, name: text, description: text }), v.description('An item of `GET /v1/inquiries/categories`.'))

/** `GET /v1/inquiries/categories`. */
export const InquiryCategoryListSchema = v.pipe(
  v.strictObject({ categories: v.array(InquiryCategorySchema) }),
  v.description('`GET /v1/inquiries/categories`: the active inquiry categories.'),
)

/** One invalid field of a 400 `VALIDATION_ERROR`. */
export const ErrorDetailSchema = v.pipe(
  v.strictObject({
    field: v.pipe(v.string(), v.description('The request field, query parameter or header at fault (dot path, e.g. `filter.custom_price.gte`; `body`, `cursor`, `query`).')),
    message: v.pipe(v.string(), v.description('Human-readable reason.')),
  }),
  v.description('One invalid field of a 400 `VALIDATION_ERROR`.'),
)

/** `GET /healthz`. */
export const HealthBodySchema = v.pipe(v.strictObject({ status: v.picklist(['ok', 'unavailable']) }), v.description('`GET /healthz`.'))

/**
 * Every named shape of the API's responses, by the name the OpenAPI document and the client
 * give it. A schema used inside another is referred to by its name (`$ref`), not repeated.
 */
export const RESPONSE_BODIES = {
  FieldValue: FieldValueSchema,
  JsonValue: JsonValueSchema,
  ContentListItem: ContentListItemSchema,
  ContentList: ContentListSchema,
  ContentDetail: ContentDetailSchema,
  Category: CategorySchema,
  CategoryList: CategoryListSchema,
  FieldDefinition: FieldDefinitionSchema,
  CategoryDetail: CategoryDetailSchema,
  SearchResultItem: SearchResultItemSchema,
  SearchResponse: SearchResponseSchema,
  InquiryCreated: InquiryCreatedSchema,
  InquiryCategory: InquiryCategorySchema,
  InquiryCategoryList: InquiryCategoryListSchema,
  ErrorDetail: ErrorDetailSchema,
  Health: HealthBodySchema,
} as const

import * as v from 'valibot'
import { normalizeDate } from '../content/field-values.ts'
import type { JsonValue } from '../model/json.ts'
import { SynonymLinesSchema } from '../search/synonyms.ts'
import { ID_PATTERN } from '../util/ids.ts'

/*
 * The records of README "Import format", as valibot schemas. Every object is strict:
 * an unknown key is an error (a typo must not silently drop data). Shapes only; what needs
 * the database (references, uniqueness, custom-field values) is checked by the planner.
 */

/** Category and inquiry-category codes: 1-64 of `A-Z a-z 0-9 _ -`, starting with a letter or digit. */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
/**
 * Slugs: 1-200 characters of lower-case `a-z`, `0-9`, `-` and `_`, starting and ending with a
 * letter or digit. ASCII only, so that a slug is the same in every URL, log and shell; a
 * Japanese item gets a romanised or descriptive slug (`office-move-2025`).
 */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9_-]{0,198}[a-z0-9])?$/
/** Custom-field names (README "Content list"). */
export const FIELD_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/
/** Field names that would collide with the fixed keys of a content detail's `content` object. */
export const RESERVED_FIELD_NAMES: readonly string[] = ['body', 'summary']

const id = v.pipe(v.string('must be a string'), v.regex(ID_PATTERN, 'must be 1-64 characters of A-Z, a-z, 0-9, _ and -'))
const code = v.pipe(v.string('must be a string'), v.regex(CODE_PATTERN, 'must be 1-64 characters of A-Z, a-z, 0-9, _ and -, starting with a letter or digit'))
const label = (max: number) =>
  v.pipe(v.string('must be a string'), v.check((s) => s.trim() !== '', 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`))
const text = (max: number) => v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`))
const sort = v.pipe(v.number('must be a number'), v.safeInteger('must be an integer'))
const active = v.optional(v.boolean('must be true or false'), true)

/** A custom-field definition as imported. */
export const FieldInputSchema = v.strictObject({
  id: v.optional(id),
  name: v.pipe(
    v.string('must be a string'),
    v.regex(FIELD_NAME_PATTERN, 'must match ^[a-z][a-z0-9_]{0,62}$'),
    v.check((n) => !RESERVED_FIELD_NAMES.includes(n), `must not be one of: ${RESERVED_FIELD_NAMES.join(', ')}`),
  ),
  type: v.picklist(['text', 'number', 'date', 'boolean', 'select'], 'must be one of: text, number, date, boolean, select'),
  options: v.optional(
    v.pipe(
      v.array(v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(200, 'must be at most 200 characters')), 'must be an array of strings'),
      v.minLength(1, 'must not be empty'),
      v.maxLength(200, 'must have at most 200 options'),
      v.check((list) => new Set(list).size === list.length, 'must not repeat a value'),
    ),
  ),
  required: v.optional(v.boolean('must be true or false'), false),
})

/** A `category` record. */
export const CategoryImportSchema = v.strictObject({
  kind: v.literal('category'),
  id: v.optional(id),
  code,
  name: label(200),
  description: v.optional(text(2000), ''),
  sort: v.optional(sort, 0),
  active,
  fields: v.optional(v.pipe(v.array(FieldInputSchema, 'must be an array'), v.maxLength(100, 'must have at most 100 fields')), []),
})

/** Tag names: trimmed, 1-100 characters, no comma (the `tags` query parameter is comma-separated). */
export const TagNameSchema = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.nonEmpty('must not be empty'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.check((n) => !n.includes(','), 'must not contain a comma'),
)

/** A `tag` record. */
export const TagImportSchema = v.strictObject({
  kind: v.literal('tag'),
  id: v.optional(id),
  name: TagNameSchema,
})

/** An `inquiry_category` record. */
export const InquiryCategoryImportSchema = v.strictObject({
  kind: v.literal('inquiry_category'),
  id: v.optional(id),
  code,
  name: label(200),
  description: v.optional(text(2000), ''),
  sort: v.optional(sort, 0),
  active,
  message: v.optional(label(2000)),
})

/** `published_at`: an ISO 8601 date-time (or date, meaning midnight UTC), stored as UTC with milliseconds. */
export const PublishedAtSchema = v.pipe(
  v.string('must be a string'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const normalized = normalizeDate(dataset.value)
    if (normalized === null) {
      addIssue({ message: 'must be an ISO 8601 date-time (2025-06-20T09:00:00Z) or date' })
      return NEVER
    }
    return normalized.length === 10 ? `${normalized}T00:00:00.000Z` : normalized
  }),
)

const jsonObject = v.pipe(
  v.record(v.string(), v.unknown(), 'must be an object'),
  v.check((value) => isJsonValue(value, 0), 'must hold JSON values only'),
  v.transform((value) => value as Record<string, JsonValue>),
)

/** `meta`: `og_title` and `og_description` are strings; further keys pass through. */
export const MetaSchema = v.pipe(
  jsonObject,
  v.check((m) => m['og_title'] === undefined || typeof m['og_title'] === 'string', 'og_title must be a string'),
  v.check((m) => m['og_description'] === undefined || typeof m['og_description'] === 'string', 'og_description must be a string'),
)

/** A `content` record. Custom-field values (`content`) are checked against the category later. */
export const ContentImportSchema = v.strictObject({
  kind: v.literal('content'),
  id: v.optional(id),
  slug: v.pipe(v.string('must be a string'), v.regex(SLUG_PATTERN, 'must be 1-200 characters of a-z, 0-9, - and _, starting and ending with a letter or digit')),
  title: label(500),
  category_code: v.optional(code),
  category_id: v.optional(id),
  status: v.optional(v.picklist(['draft', 'published'], 'must be draft or published'), 'draft'),
  published_at: v.nullish(PublishedAtSchema),
  author_name: v.optional(text(200), ''),
  tags: v.optional(v.pipe(v.array(TagNameSchema, 'must be an array of tag names'), v.maxLength(100, 'must have at most 100 tags')), []),
  summary: v.optional(text(10_000), ''),
  body: v.optional(text(2_000_000), ''),
  content: v.optional(jsonObject, {}),
  meta: v.optional(MetaSchema, {}),
})

/**
 * A `synonyms` record: the tenant's whole set of synonyms, one group a line in the format of
 * `frontdesk synonyms set` (checked by `parseSynonymLines`); importing it replaces the set.
 */
export const SynonymsImportSchema = v.strictObject({
  kind: v.literal('synonyms'),
  groups: SynonymLinesSchema,
})

/** Any import record, told apart by `kind`. */
export const ImportRecordSchema = v.variant(
  'kind',
  [CategoryImportSchema, TagImportSchema, ContentImportSchema, InquiryCategoryImportSchema, SynonymsImportSchema],
  'must be category, tag, content, inquiry_category or synonyms',
)

/** An import record once its shape is checked (defaults applied). */
export type ImportRecord = v.InferOutput<typeof ImportRecordSchema>
/** A checked record of one kind. */
export type CategoryImport = v.InferOutput<typeof CategoryImportSchema>
/** A checked `tag` record. */
export type TagImport = v.InferOutput<typeof TagImportSchema>
/** A checked `content` record. */
export type ContentImport = v.InferOutput<typeof ContentImportSchema>
/** A checked `inquiry_category` record. */
export type InquiryCategoryImport = v.InferOutput<typeof InquiryCategoryImportSchema>
/** A checked `synonyms` record. */
export type SynonymsImport = v.InferOutput<typeof SynonymsImportSchema>
/** A record as written by `exportRecords` (and accepted by import). */
export type ImportRecordOut = v.InferInput<typeof ImportRecordSchema>
/** The record kinds, in the order an export writes them (dependencies first). */
export const RECORD_KINDS = ['category', 'tag', 'content', 'inquiry_category', 'synonyms'] as const
/** A record kind. */
export type RecordKind = (typeof RECORD_KINDS)[number]

function isJsonValue(value: unknown, depth: number): boolean {
  if (depth > 32) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1))
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value)
    return (proto === Object.prototype || proto === null) && Object.values(value).every((item) => isJsonValue(item, depth + 1))
  }
  return false
}

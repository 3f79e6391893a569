import type { OverrideActionContext } from '@valibot/to-json-schema'
import { toJsonSchema } from '@valibot/to-json-schema'
import { FILTER_OPERATORS, InquirySchema, LIST_LIMITS, ListParamsSchema, MAX_FILTER_FIELDS, MAX_IN_VALUES, SearchRequestSchema } from '@frontdesk/core'
import type { JsonSchema } from './json-schema.ts'

/**
 * How the `check` actions of core's schemas read in JSON Schema. The converter cannot see into
 * a predicate, so a check is recognised by its message: a length limit counted in code points
 * becomes `maxLength` (JSON Schema counts code points too), the e-mail check `format: email`
 * (core's rule is stricter than RFC 5322's syntax, see `isEmailAddress`), the priority check
 * an integer range; any other check is appended to the field's `description`, so nothing the
 * server enforces is silently left out.
 */
const CHECK_KEYWORDS: { match: RegExp; keywords: (found: RegExpExecArray) => JsonSchema }[] = [
  { match: /^must be at most ([\d,]+) characters$/, keywords: (found) => ({ maxLength: Number((found[1] ?? '').replaceAll(',', '')) }) },
  { match: /^must not be empty$/, keywords: () => ({ minLength: 1 }) },
  { match: /e-mail address/, keywords: () => ({ format: 'email' }) },
  { match: /^must be the integer 1 \(low\), 2 \(medium\) or 3 \(high\)$/, keywords: () => ({ type: 'integer', minimum: 1, maximum: 3 }) },
]

function messageOf(action: OverrideActionContext['valibotAction']): string | null {
  const message: unknown = (action as { message?: unknown }).message
  if (typeof message === 'string') return message
  if (typeof message !== 'function') return null
  try {
    // Hint: core's checks use constant messages (`() => text`), which need no issue.
    const text: unknown = message()
    return typeof text === 'string' ? text : null
  } catch {
    return null
  }
}

function describe(schema: JsonSchema, note: string): JsonSchema {
  const before = typeof schema.description === 'string' ? `${schema.description} ` : ''
  return { ...schema, description: `${before}${note}` }
}

function overrideAction(context: OverrideActionContext): JsonSchema | undefined {
  const schema = context.jsonSchema as JsonSchema
  const action = context.valibotAction
  if (action.type === 'trim') return describe(schema, 'Trimmed of leading and trailing white space before it is checked.')
  if (action.type !== 'check') return undefined
  const message = messageOf(action)
  if (message === null) return describe(schema, 'Checked further by the server.')
  for (const rule of CHECK_KEYWORDS) {
    const found = rule.match.exec(message)
    if (found !== null) return { ...schema, ...rule.keywords(found) }
  }
  return describe(schema, `Also ${message}.`)
}

/** Converts a core valibot schema of an input (what clients send) to JSON Schema 2020-12. */
export function inputJsonSchema(schema: Parameters<typeof toJsonSchema>[0]): JsonSchema {
  const converted = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: 'input', errorMode: 'throw', overrideAction }) as JsonSchema
  delete converted.$schema
  return converted
}

const filterValue: JsonSchema = { type: ['string', 'number', 'boolean'] }

/**
 * `filter` of a search request. Core checks it against the tenant's custom fields at request
 * time (`parseSearchFilter`), so its keys cannot be listed here; the shape can.
 */
const SEARCH_FILTER: JsonSchema = {
  type: 'object',
  description:
    'Custom-field filter. Keys are `custom_<field name>` of the category (or of any category without `category_id` or `category_code`). A plain value means `eq`; ' +
    'an object combines operators (`{"gte": 10, "lt": 20}`). `gt`, `gte`, `lt`, `lte` apply to number and date fields; `in` takes 1 to ' +
    `${MAX_IN_VALUES} values. At most ${MAX_FILTER_FIELDS} fields. An unknown field or operator is a 400.`,
  maxProperties: MAX_FILTER_FIELDS,
  propertyNames: { pattern: '^custom_[a-z][a-z0-9_]{0,62}$' },
  additionalProperties: {
    anyOf: [
      filterValue,
      {
        type: 'object',
        minProperties: 1,
        properties: Object.fromEntries(
          FILTER_OPERATORS.map((op) => [op, op === 'in' ? { type: 'array', items: filterValue, minItems: 1, maxItems: MAX_IN_VALUES } : filterValue]),
        ),
        additionalProperties: false,
      },
    ],
  },
}

/** What `query` matches (README, "Search"). */
const QUERY_DESCRIPTION = [
  'What the visitor typed, 1–500 characters after trimming; never a 400 for its content (only punctuation or symbols finds nothing).',
  'Items having every word come first; when none has them all, the items having the most of them are returned (no dead ends), and `total` counts what is returned.',
  'Each word also matches as a prefix, in another English form of its stem (Porter2: `learning` finds `learned`), and with one typo from 5 letters.',
  'A word of one character (`a`, `あ`, `日`) matches as a prefix only the 8 longer words beginning with it that the most items hold, and only for the first two such words of a query (later ones match themselves only); in quotes it matches every word it begins.',
  'Letters and digits joined by `-`, `.`, `/` or `_` are found joined, split or as written (`covid19`, `covid-19`, `covid 19`; `email`, `e-mail`).',
  'A word of letters and digits also finds its parts written apart (`iphone15` finds `iPhone 15`), and a word of one character or of digits typed apart from its neighbour also finds the two joined (`e mail` finds `email`, `iphone 15` finds `iPhone15`), ranked as a synonym.',
  'Japanese: hiragana and katakana are one (`ぷらいばしー` finds `プライバシー`), a small vowel is its full-size kana (`ウィンドウズ` / `ウインドウズ`; `ヶ` and `ヵ` are `カ`), a long-vowel mark ending a word is optional (`コンピューター` / `コンピュータ`), also for the words of a katakana compound written together (`ユーザインタフェース` finds `ユーザーインターフェース`),',
  'and `・`, `＝` or a space inside a katakana compound does not split it.',
  '`-word` (after a space or at the start) leaves out the items having that word; a lone `-` and a `-` inside a word or inside quotes are plain text.',
  '`\"a phrase\"` finds only items holding those words side by side and in order in one field, each word whole and as written (after case, width and kana folding; no prefix, stem or typo); in Japanese the quoted characters must stand together.',
  'A phrase is required (no dead ends and `-` do not apply to it) and is looked for among the 1,000 newest visible items having its words whole (`total` counts what is found there: a phrase of common words may be missed in older items); a quote left alone and `\"\"` are plain text.',
  'A word with synonyms in the tenant\'s synonym set (`frontdesk synonyms set`) also finds them, whole and as written.',
  'Ranking: the most words matched, then by relevance, in which a word as typed counts more than a synonym, which counts more than another form of its stem, which counts more than a typo, which counts more than a prefix, and title matches most.',
].join(' ')
/** What the search body's fields mean (the converter knows their shape, not their sense). */
const SEARCH_DESCRIPTIONS: Record<string, string> = {
  query: QUERY_DESCRIPTION,
  category_id: 'Only items of the category with this id (an unknown or inactive one finds nothing).',
  category_code: 'Only items of the category with this code, as in the content list; with `category_id` too, both must name the same category (else nothing is found).',
  tags: 'Only items carrying any of these tag names (OR; the content list’s `tags` is AND).',
  sort: '`relevance` (the default: highest score first — the most query words, then how they matched: as typed, synonym, stem, typo, prefix — then newest first), `published_at:asc|desc` or `custom_<field name>:asc|desc` (items lacking the field come last).',
  from: 'How many results to skip.',
  size: 'Results per page.',
}

/**
 * The request schemas of `/v1`, derived from core's valibot schemas. Where a schema
 * transforms its input (the list's comma lists, `limit` read from text) the *input* shape is
 * documented, with the rule in words; `limit` is documented as the integer it means.
 */
export function requestSchemas(): { listParameters: Record<string, JsonSchema>; searchRequest: JsonSchema; inquiryInput: JsonSchema } {
  const list = inputJsonSchema(ListParamsSchema)
  const listParameters = { ...(list.properties as Record<string, JsonSchema>) }
  // Hint: query values are text on the wire; tools generate better clients from the integer.
  listParameters.limit = { type: 'integer', minimum: 1, maximum: LIST_LIMITS.maxLimit, default: LIST_LIMITS.defaultLimit }
  const search = inputJsonSchema(SearchRequestSchema)
  const searchProperties: Record<string, JsonSchema> = { ...(search.properties as Record<string, JsonSchema>), filter: SEARCH_FILTER }
  for (const [name, text] of Object.entries(SEARCH_DESCRIPTIONS)) {
    const property = searchProperties[name]
    if (property !== undefined) searchProperties[name] = describe(property, text)
  }
  const inquiry = inputJsonSchema(InquirySchema)
  return {
    listParameters,
    // Both bodies refuse unknown fields (one detail each), which the converter cannot know.
    searchRequest: { ...search, properties: searchProperties, additionalProperties: false },
    inquiryInput: { ...inquiry, additionalProperties: false },
  }
}

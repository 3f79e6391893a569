import type { InquiryRecord } from '../model/inquiry.ts'
import * as v from 'valibot'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { issuesToDetails } from '../validation/issues.ts'
import { EMAIL_MAX_LENGTH, isEmailAddress } from './email-address.ts'
import { codePointLength, hasControlCharacter, hasInvisibleCharacter, hasInvisibleFormatCharacter, hasLoneSurrogate, hasVisibleCharacter } from './inquiry-text.ts'
import { groupDigits } from '../util/group-digits.ts'

/** A checked, normalised `POST /v1/inquiries` body: strings trimmed, absent optionals `null`. */
export type InquiryInput = Pick<
  InquiryRecord,
  | 'category_code'
  | 'title'
  | 'content'
  | 'priority'
  | 'inquirer_name'
  | 'inquirer_email'
  | 'inquirer_phone'
  | 'inquirer_company'
  | 'inquirer_department'
>

/** What `parseInquiryInput` found. */
export type InquiryInputResult =
  | { ok: true; value: InquiryInput }
  /**
   * `categoryCode` is the trimmed code when that field itself was well-formed, so that the
   * caller can check it against the tenant's categories and report everything in one reply.
   */
  | { ok: false; details: ErrorDetail[]; categoryCode: string | null }

/** The default priority (medium). */
export const DEFAULT_PRIORITY = 2

/** The longest category code looked up; longer ones cannot name a category worth a query. */
const CATEGORY_CODE_MAX_LENGTH = 255

const PHONE = /^[0-9+\-() ]*$/

interface TextRule {
  /** Longest value, in code points, after trimming. */
  max: number
  /** Whether `\n`, `\r` and `\t` are allowed. Default: no. */
  multiline?: boolean
}

function message(text: string) {
  return () => text
}

/** The rules every text field shares: a string, trimmed, clean, not longer than `max`. */
function text(rule: TextRule) {
  return v.pipe(
    v.string((issue) => (issue.input === undefined || issue.input === null ? 'is required' : 'must be a string')),
    v.trim(),
    v.check((value) => !hasLoneSurrogate(value), message('must be valid Unicode text')),
    v.check(
      (value) => !hasControlCharacter(value, rule.multiline),
      message(rule.multiline ? 'must not contain control characters other than line breaks and tabs' : 'must not contain control characters or line breaks'),
    ),
    v.check(
      (value) => rule.multiline === true || !hasInvisibleFormatCharacter(value),
      message('must not contain invisible formatting characters (bidi controls, zero-width spaces and the like)'),
    ),
    v.check(
      (value) => rule.multiline === true || !hasInvisibleCharacter(value),
      message('must not contain invisible characters (Hangul fillers, braille blanks, noncharacters, stray variation selectors and the like)'),
    ),
    v.check((value) => value === '' || hasVisibleCharacter(value), message('must contain a visible character')),
    v.check((value) => codePointLength(value) <= rule.max, message(`must be at most ${groupDigits(rule.max)} characters`)),
  )
}

function required(rule: TextRule) {
  return v.pipe(text(rule), v.check((value) => value.length > 0, message('must not be empty')))
}

/** An optional text: absent, `null` and empty (after trimming) all mean "not given" → `null`. */
function optional<S extends v.GenericSchema<string, string>>(schema: S) {
  return v.pipe(
    v.nullish(schema),
    v.transform((value): string | null => (value === undefined || value === null || value === '' ? null : value)),
  )
}

const PRIORITY_MESSAGE = 'must be the integer 1 (low), 2 (medium) or 3 (high)'

/**
 * The body schema. Field order is the order `details` are reported in. Exported for
 * `@frontdesk/http`'s OpenAPI document; use `parseInquiryInput`.
 */
export const InquirySchema = v.object({
  category_code: required({ max: CATEGORY_CODE_MAX_LENGTH }),
  title: required({ max: 200 }),
  content: required({ max: 10_000, multiline: true }),
  priority: v.nullish(
    v.pipe(
      v.number(message(PRIORITY_MESSAGE)),
      v.check((value) => value === 1 || value === 2 || value === 3, message(PRIORITY_MESSAGE)),
      v.transform((value) => value as 1 | 2 | 3),
    ),
    DEFAULT_PRIORITY,
  ),
  inquirer_name: required({ max: 100 }),
  inquirer_email: v.pipe(
    required({ max: EMAIL_MAX_LENGTH }),
    v.check(isEmailAddress, message('must be a valid e-mail address, like name@example.com')),
  ),
  inquirer_phone: optional(
    v.pipe(
      text({ max: 30 }),
      v.check((value) => PHONE.test(value), message('may contain only digits, spaces and + - ( )')),
      v.check((value) => value === '' || /[0-9]/.test(value), message('must contain a digit')),
    ),
  ),
  inquirer_company: optional(text({ max: 200 })),
  inquirer_department: optional(text({ max: 200 })),
})

/** The fields `POST /v1/inquiries` accepts, in reporting order. */
export const INQUIRY_FIELDS: readonly string[] = Object.keys(InquirySchema.entries)
const KNOWN = new Set(INQUIRY_FIELDS)

/**
 * Checks a `POST /v1/inquiries` body (a parsed JSON value) and normalises it, reporting every
 * invalid field at once, one detail each: the body must be an object; every field not in
 * `INQUIRY_FIELDS` is reported by its own name (`__proto__`, `constructor` and `prototype`
 * too: the body is read by own keys only and never merged into an object); required strings
 * must be non-empty after trimming and every non-empty string must hold a visible character;
 * see `inquiry-text.ts` for lengths, control, invisible and visible characters
 * and `isEmailAddress` for addresses. Optional fields may be absent, `null` or empty.
 * `priority` must be the JSON number 1, 2 or 3 (default 2): `"2"`, `1.5` and `true` are refused.
 *
 * Whether `category_code` names an active category of the tenant is not checked here.
 */
export function parseInquiryInput(body: unknown): InquiryInputResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, details: [{ field: 'body', message: 'must be a JSON object' }], categoryCode: null }
  }
  // Hint: a null-prototype copy of the known fields only; an own `__proto__` key of the body is
  // data to report, never a prototype, and nothing inherited can pass for a field.
  const known: Record<string, unknown> = Object.create(null)
  for (const field of INQUIRY_FIELDS) known[field] = Object.hasOwn(body, field) ? (body as Record<string, unknown>)[field] : undefined
  const unknown: ErrorDetail[] = Object.keys(body)
    .filter((key) => !KNOWN.has(key))
    .map((field) => ({ field, message: 'is not a known field' }))

  const parsed = v.safeParse(InquirySchema, known, { abortPipeEarly: true })
  if (parsed.success && unknown.length === 0) {
    const out = parsed.output
    return {
      ok: true,
      value: {
        category_code: out.category_code,
        title: out.title,
        content: out.content,
        priority: out.priority,
        inquirer_name: out.inquirer_name,
        inquirer_email: out.inquirer_email,
        inquirer_phone: out.inquirer_phone ?? null,
        inquirer_company: out.inquirer_company ?? null,
        inquirer_department: out.inquirer_department ?? null,
      },
    }
  }
  const details = parsed.success ? [] : issuesToDetails(parsed.issues)
  const categoryInvalid = details.some((detail) => detail.field === 'category_code')
  const categoryCode = categoryInvalid ? null : (known.category_code as string).trim()
  return { ok: false, details: [...details, ...unknown], categoryCode }
}

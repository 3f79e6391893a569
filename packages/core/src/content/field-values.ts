import type { FieldDefinition, FieldValue } from '../model/category.ts'

/** A checked custom-field value, or why it was refused. */
export type FieldValueResult = { ok: true; value: FieldValue } | { ok: false; message: string }

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * Checks a value given for a custom field (import records, search filters) against its
 * definition, and normalises it to what is stored: numbers finite, select values among the
 * options, dates as `YYYY-MM-DD` or a full ISO 8601 UTC date-time (`…T…Z`, milliseconds).
 */
export function normalizeFieldValue(field: FieldDefinition, raw: unknown): FieldValueResult {
  switch (field.type) {
    case 'text':
      return typeof raw === 'string' ? { ok: true, value: raw } : fail('must be a string')
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? { ok: true, value: raw } : fail('must be a finite number')
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : fail('must be true or false')
    case 'select':
      if (typeof raw !== 'string') return fail('must be a string')
      return field.options?.includes(raw) ? { ok: true, value: raw } : fail(`must be one of: ${(field.options ?? []).join(', ')}`)
    case 'date': {
      const value = typeof raw === 'string' ? normalizeDate(raw) : null
      return value === null ? fail('must be an ISO 8601 date (2025-06-20) or date-time') : { ok: true, value }
    }
  }
}

/**
 * Reads a custom-field value written as text, as in `field_filters=<field_id>:<value>`:
 * `number` parses a decimal, `boolean` takes `true`/`false`, the rest as for `normalizeFieldValue`.
 */
export function parseFieldValueText(field: FieldDefinition, text: string): FieldValueResult {
  switch (field.type) {
    case 'number': {
      const trimmed = text.trim()
      const value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN
      return normalizeFieldValue(field, value)
    }
    case 'boolean':
      return text === 'true' || text === 'false' ? { ok: true, value: text === 'true' } : fail('must be true or false')
    default:
      return normalizeFieldValue(field, text)
  }
}

/** `YYYY-MM-DD` stays as it is (when a real day); a date-time becomes ISO UTC; anything else is `null`. */
export function normalizeDate(text: string): string | null {
  if (DATE_ONLY.test(text)) {
    const parsed = new Date(`${text}T00:00:00Z`)
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(text) ? text : null
  }
  if (!DATE_TIME.test(text)) return null
  const parsed = new Date(text)
  return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString()
}

function fail(message: string): FieldValueResult {
  return { ok: false, message }
}

import { invalidInput } from '../admin/invalid-input.ts'
import { normalizeFieldValue } from '../content/field-values.ts'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import type { FieldDefinition, FieldValue } from '../model/category.ts'
import type { JsonValue } from '../model/json.ts'

/**
 * Checks a content record's custom-field values (keyed by field **name**) against its
 * category's definitions and returns them keyed by field **id**, as stored. Unknown names,
 * invalid values and missing required fields are all reported, as `content.<name>`.
 */
export function contentFieldValues(definitions: readonly FieldDefinition[], values: Record<string, JsonValue>, location: string): Record<string, FieldValue> {
  const problems: ErrorDetail[] = []
  const out: Record<string, FieldValue> = {}
  const byName = new Map(definitions.map((f) => [f.name, f]))
  for (const [name, raw] of Object.entries(values)) {
    const field = byName.get(name)
    if (field === undefined) {
      problems.push({ field: `content.${name}`, message: 'is not a field of this category' })
      continue
    }
    const result = normalizeFieldValue(field, raw)
    if (result.ok) out[field.id] = result.value
    else problems.push({ field: `content.${name}`, message: result.message })
  }
  for (const field of definitions) {
    if (field.required && !(field.name in values)) problems.push({ field: `content.${field.name}`, message: 'is required by the category' })
  }
  if (problems.length > 0) throw invalidInput(location, problems)
  return out
}

/**
 * What is wrong with an item's stored custom-field values (keyed by field **id**) under its
 * category's current definitions: a required field without a value, or a value the field no
 * longer accepts (a select option that was removed). Values of fields the category no longer
 * defines are ignored, as everywhere else. Reported as `content.<name>`.
 */
export function storedFieldProblems(definitions: readonly FieldDefinition[], values: Readonly<Record<string, FieldValue>>): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  for (const field of definitions) {
    const value = values[field.id]
    if (value === undefined) {
      if (field.required) problems.push({ field: `content.${field.name}`, message: 'is required by the category' })
      continue
    }
    const result = normalizeFieldValue(field, value)
    if (!result.ok) problems.push({ field: `content.${field.name}`, message: result.message })
  }
  return problems
}

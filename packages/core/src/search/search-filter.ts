import { normalizeFieldValue } from '../content/field-values.ts'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import type { FieldDefinition, FieldValue } from '../model/category.ts'
import type { FieldCondition, FieldOperators } from '../port/search.ts'

/** The operators of a filter entry (docs/API.md "POST /v1/cms/search"). */
export const FILTER_OPERATORS = ['eq', 'gte', 'lte', 'gt', 'lt', 'in'] as const

/** At most this many fields in one `filter`, and values in one `in`. */
export const MAX_FILTER_FIELDS = 20
export const MAX_IN_VALUES = 100

type Operator = (typeof FILTER_OPERATORS)[number]
const RANGE: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte'])

/** At most this many kinds of definition of one name have their typed operands shared (see `parseEntry`). */
const SHARED_KINDS = 8

/**
 * Reads the request's `filter` (README "Search") against the custom fields it may name: keys
 * `custom_<name>`; a plain value means `eq`; an operator object combines `eq`, `gt`, `gte`,
 * `lt`, `lte` and `in` (1–100 values); range operators only on number and date fields; every
 * value typed and normalised per field. `fieldsByName` holds, per name, the definitions of
 * that name (one per category that has it). Every problem is reported with its path, e.g.
 * `filter.custom_price.gte`.
 */
export function parseSearchFilter(
  raw: unknown,
  fieldsByName: ReadonlyMap<string, readonly FieldDefinition[]>,
  /** Whose fields `fieldsByName` holds, for messages: `of the category` or `of any category`. */
  scope = 'of the category',
): { conditions: FieldCondition[]; details: ErrorDetail[] } {
  const conditions: FieldCondition[] = []
  const details: ErrorDetail[] = []
  if (!isPlainObject(raw)) return { conditions, details: [{ field: 'filter', message: 'must be an object' }] }
  const keys = Object.keys(raw)
  if (keys.length > MAX_FILTER_FIELDS) return { conditions, details: [{ field: 'filter', message: `must have at most ${MAX_FILTER_FIELDS} fields` }] }
  for (const key of keys) {
    const path = `filter.${key}`
    const definitions = key.startsWith('custom_') ? fieldsByName.get(key.slice('custom_'.length)) : undefined
    if (definitions === undefined || definitions.length === 0) {
      details.push({ field: path, message: key.startsWith('custom_') ? `is not a custom field ${scope}` : 'must be a custom field of the form custom_<name>' })
      continue
    }
    const condition = parseEntry(key, raw[key], definitions, path, details)
    if (condition !== null) conditions.push(condition)
  }
  return { conditions, details }
}

function parseEntry(key: string, value: unknown, definitions: readonly FieldDefinition[], path: string, details: ErrorDetail[]): FieldCondition | null {
  let operators: [Operator, unknown][]
  let plain = false
  let unknownOperators = false
  if (isPlainObject(value)) {
    const entries = Object.entries(value)
    if (entries.length === 0) {
      details.push({ field: path, message: `must name at least one operator (${FILTER_OPERATORS.join(', ')})` })
      return null
    }
    const unknown = entries.filter(([op]) => !(FILTER_OPERATORS as readonly string[]).includes(op))
    for (const [op] of unknown) details.push({ field: `${path}.${op}`, message: `is not an operator (${FILTER_OPERATORS.join(', ')})` })
    unknownOperators = unknown.length > 0
    // The known operators are still checked, so that every problem of the entry shows at once.
    operators = entries.filter((entry) => !unknown.includes(entry)) as [Operator, unknown][]
  } else if (Array.isArray(value)) {
    details.push({ field: path, message: 'must be a value or an operator object; use {"in": [...]} for several values' })
    return null
  } else {
    operators = [['eq', value]]
    plain = true
  }

  // The entry applies to every definition of the name that accepts all of it; when none does,
  // the problems are reported as the first definition sees them.
  const byFieldId = new Map<string, FieldOperators>()
  let firstProblems: ErrorDetail[] | null = null
  // Hint: a name is a field of its own in each category that has it (often tens of them, alike): the operands are typed once per kind
  // of definition (the first `SHARED_KINDS` kinds: a name of many different select fields costs one typing each, never a search among them all).
  const kinds: { definition: FieldDefinition; typed: FieldOperators; problems: ErrorDetail[] }[] = []
  for (const definition of definitions) {
    let typing = kinds.find((kind) => sameKind(kind.definition, definition))
    if (typing === undefined) {
      const problems: ErrorDetail[] = []
      typing = { definition, typed: typeOperators(definition, operators, plain ? null : path, path, problems), problems }
      if (kinds.length < SHARED_KINDS) kinds.push(typing)
    }
    if (typing.problems.length === 0) byFieldId.set(definition.id, typing.typed)
    else firstProblems ??= typing.problems
  }
  if (byFieldId.size === 0) {
    details.push(...(firstProblems ?? []))
    return null
  }
  return unknownOperators ? null : { key, byFieldId }
}

/** Whether `typeOperators` types every operand alike for both definitions: it reads their type and a select's options. */
function sameKind(a: FieldDefinition, b: FieldDefinition): boolean {
  if (a.type !== b.type) return false
  if (a.type !== 'select') return true
  const x = a.options ?? []
  const y = b.options ?? []
  return x.length === y.length && x.every((option, i) => option === y[i])
}

/** Types each operand for `field`; `objectPath` is `null` for a plain value (reported on the key itself). */
function typeOperators(field: FieldDefinition, operators: [Operator, unknown][], objectPath: string | null, path: string, problems: ErrorDetail[]): FieldOperators {
  const typed: FieldOperators = {}
  const singlePath = (op: Operator): string => (objectPath === null ? path : `${objectPath}.${op}`)
  for (const [op, raw] of operators) {
    if (RANGE.has(op) && field.type !== 'number' && field.type !== 'date') {
      problems.push({ field: `${path}.${op}`, message: `applies only to number and date fields (this field is ${field.type})` })
      continue
    }
    if (op === 'in') {
      if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_IN_VALUES) {
        problems.push({ field: `${path}.in`, message: `must be an array of 1 to ${MAX_IN_VALUES} values` })
        continue
      }
      const values: FieldValue[] = []
      raw.forEach((item: unknown, i: number) => {
        const result = normalizeFieldValue(field, item)
        if (result.ok) values.push(result.value)
        else problems.push({ field: `${path}.in.${i}`, message: result.message })
      })
      typed.in = values
      continue
    }
    const result = normalizeFieldValue(field, raw)
    if (result.ok) typed[op] = result.value
    else problems.push({ field: singlePath(op), message: result.message })
  }
  return typed
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

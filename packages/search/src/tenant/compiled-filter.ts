import type { FieldCondition, FieldOperators, SearchDocument } from '@frontdesk/core'
import { matchesNarrowing, satisfiesOperators } from '@frontdesk/core'
import type { DocsByNumber } from './doc-table.ts'
import type { FieldColumn } from './field-columns.ts'

/** One filter entry against the column of its fields. */
interface CompiledCondition {
  column: FieldColumn
  /** The entry's operators by the column's field index. */
  operators: FieldOperators[]
  /** Per value code: 0 not decided yet, 1 passes, 2 fails. */
  verdicts: Uint8Array
  condition: FieldCondition
}

/**
 * A query's custom-field filters compiled against columns (see `FieldColumns.compile`): whether
 * a document passes every entry is a few typed-array reads, each distinct value judged once per
 * query by core's `satisfiesOperators` for its field. The term matcher asks it while reading
 * the rarest term's postings, beside the eligibility bits, so that a filtered search ranks only
 * what passes, like an unfiltered one.
 */
export class CompiledFilter {
  readonly #conditions: CompiledCondition[]
  readonly #docs: DocsByNumber

  constructor(filters: readonly FieldCondition[], columns: readonly FieldColumn[], docs: DocsByNumber) {
    this.#docs = docs
    this.#conditions = filters.map((condition, i) => {
      const column = columns[i]
      if (column === undefined) throw new Error('A compiled filter needs a column per entry')
      const operators = column.fieldIds.map((fieldId) => condition.byFieldId.get(fieldId) ?? {})
      return { column, operators, verdicts: new Uint8Array(column.values.length), condition }
    })
  }

  /** Whether document `number` passes every filter entry (one of an entry's fields satisfying it), as core's `matchesNarrowing`. */
  passes(number: number): boolean {
    const conditions = this.#conditions
    for (let c = 0; c < conditions.length; c++) {
      const condition = conditions[c]
      if (condition !== undefined && !this.#passesOne(condition, number)) return false
    }
    return true
  }

  #passesOne(condition: CompiledCondition, number: number): boolean {
    const column = condition.column
    const code = column.codes[number] ?? -1
    if (code < 0) return false
    let verdict = condition.verdicts[code] ?? 0
    if (verdict === 0) {
      // Hint: a value new since the filter was compiled (the columns grow with the index) is judged as well.
      if (code >= condition.verdicts.length) return this.#passesSlowly(condition, number)
      const value = column.values[code]
      const operators = condition.operators[column.fieldOf[code] ?? 0]
      verdict = value !== undefined && operators !== undefined && satisfiesOperators(value, operators) ? 1 : 2
      condition.verdicts[code] = verdict
    }
    if (verdict === 1) return true
    // Its first value fails: an item holding another of the fields may pass by that one.
    return column.several.size > 0 && column.several.has(number) && this.#passesSlowly(condition, number)
  }

  #passesSlowly(condition: CompiledCondition, number: number): boolean {
    const doc = this.#docs.at(number)
    return doc !== undefined && matchesNarrowing(doc, { categoryId: null, tags: null, filters: [condition.condition] })
  }
}

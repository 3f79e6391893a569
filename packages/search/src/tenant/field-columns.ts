import type { FieldCondition, FieldOperators, FieldValue, SearchDocument } from '@frontdesk/core'
import { matchesNarrowing } from '@frontdesk/core'

/** At most this many columns per tenant index (~4 bytes per item each); other fields are read from the items. */
export const MAX_COLUMNS = 32

/**
 * One custom field's values by document number, dictionary-coded: `ids[doc]` is the value's
 * index in `values`, -1 when the item lacks the field. A filter then reads an `Int32Array`
 * instead of each candidate's object (random memory reads that cost most of a filtered
 * search), and decides each distinct value once per query.
 */
class FieldColumn {
  ids: Int32Array
  readonly values: FieldValue[] = []
  readonly #codes = new Map<FieldValue, number>()
  readonly #fieldId: string

  constructor(fieldId: string, capacity: number) {
    this.#fieldId = fieldId
    this.ids = new Int32Array(capacity)
  }

  /** Records document `number`'s value (its array already large enough). */
  set(number: number, doc: SearchDocument): void {
    const fields = doc.fields
    if (!Object.hasOwn(fields, this.#fieldId)) {
      this.ids[number] = -1
      return
    }
    const value = fields[this.#fieldId]
    if (value === undefined) {
      this.ids[number] = -1
      return
    }
    let code = this.#codes.get(value)
    if (code === undefined) {
      code = this.values.length
      this.values.push(value)
      this.#codes.set(value, code)
    }
    this.ids[number] = code
  }
}

/** One `(field, operators)` pair of a filter entry, compiled against its column. */
interface CompiledPart {
  ids: Int32Array
  values: FieldValue[]
  /** Per value code: 0 not decided yet, 1 passes, 2 fails. */
  verdicts: Uint8Array
  fieldId: string
  operators: FieldOperators
  key: string
}

/**
 * The custom-field columns of one tenant index, made on first use by a filter and kept up
 * to date as items are added (`add`); `clear` drops them (a compaction renumbers items).
 */
export class FieldColumns {
  readonly #columns = new Map<string, FieldColumn>()

  /** Records a newly numbered item in every existing column (`capacity`: the length the arrays need). */
  add(number: number, doc: SearchDocument, capacity: number): void {
    for (const column of this.#columns.values()) {
      if (column.ids.length < capacity) {
        const grown = new Int32Array(capacity)
        grown.set(column.ids)
        column.ids = grown
      }
      column.set(number, doc)
    }
  }

  /** Drops every column. */
  clear(): void {
    this.#columns.clear()
  }

  /**
   * `filters` (as core's `matchesNarrowing` applies them) compiled against the columns, or
   * `undefined` when a field would need a column beyond `MAX_COLUMNS` (the caller then reads
   * the items). `docs` are the items by number, to fill a new column.
   */
  compile(filters: readonly FieldCondition[], docs: readonly (SearchDocument | undefined)[]): CompiledFilter | undefined {
    const conditions: CompiledPart[][] = []
    for (const condition of filters) {
      const parts: CompiledPart[] = []
      for (const [fieldId, operators] of condition.byFieldId) {
        const column = this.#column(fieldId, docs)
        if (column === undefined) return undefined
        parts.push({ ids: column.ids, values: column.values, verdicts: new Uint8Array(column.values.length), fieldId, operators, key: condition.key })
      }
      conditions.push(parts)
    }
    return new CompiledFilter(conditions)
  }

  #column(fieldId: string, docs: readonly (SearchDocument | undefined)[]): FieldColumn | undefined {
    let column = this.#columns.get(fieldId)
    if (column !== undefined) return column
    if (this.#columns.size >= MAX_COLUMNS) return undefined
    column = new FieldColumn(fieldId, Math.max(1024, docs.length))
    for (let number = 0; number < docs.length; number++) {
      const doc = docs[number]
      if (doc === undefined) column.ids[number] = -1
      else column.set(number, doc)
    }
    this.#columns.set(fieldId, column)
    return column
  }
}

/** Filters compiled against columns (see `FieldColumns.compile`). */
export class CompiledFilter {
  readonly #conditions: CompiledPart[][]

  constructor(conditions: CompiledPart[][]) {
    this.#conditions = conditions
  }

  /** Whether document `number` passes every filter entry (one of an entry's fields satisfying it). */
  accepts(number: number): boolean {
    const conditions = this.#conditions
    for (let c = 0; c < conditions.length; c++) {
      const parts = conditions[c] ?? []
      let passed = false
      for (let p = 0; p < parts.length && !passed; p++) {
        const part = parts[p]
        if (part !== undefined) passed = passes(part, number)
      }
      if (!passed) return false
    }
    return true
  }

  /**
   * Keeps, in place and in order, the documents of `docs[0, length)` (and their `scores`) that
   * pass; returns how many. One loop over typed arrays for the usual single-field entry.
   */
  keep(docs: Int32Array, scores: Float64Array, length: number): number {
    const only = this.#conditions.length === 1 ? this.#conditions[0] : undefined
    const part = only?.length === 1 ? only[0] : undefined
    let kept = 0
    if (part !== undefined) {
      for (let i = 0; i < length; i++) {
        const number = docs[i] ?? 0
        if (!passes(part, number)) continue
        docs[kept] = number
        scores[kept++] = scores[i] ?? 0
      }
      return kept
    }
    for (let i = 0; i < length; i++) {
      const number = docs[i] ?? 0
      if (!this.accepts(number)) continue
      docs[kept] = number
      scores[kept++] = scores[i] ?? 0
    }
    return kept
  }
}

/** Whether document `number` has the part's field with a value satisfying its operators. */
function passes(part: CompiledPart, number: number): boolean {
  const code = part.ids[number] ?? -1
  if (code < 0) return false
  let verdict = part.verdicts[code] ?? 0
  if (verdict === 0) {
    verdict = decide(part, part.values[code])
    part.verdicts[code] = verdict
  }
  return verdict === 1
}

/** 1 when `value` satisfies the part's operators, else 2 — by core's own rule, on an item holding only that value. */
function decide(part: CompiledPart, value: FieldValue | undefined): number {
  if (value === undefined) return 2
  const doc: SearchDocument = { id: '', category_id: '', status: 'published', published_at: null, tags: [], fields: { [part.fieldId]: value } }
  const condition: FieldCondition = { key: part.key, byFieldId: new Map([[part.fieldId, part.operators]]) }
  return matchesNarrowing(doc, { categoryId: null, tags: null, filters: [condition] }) ? 1 : 2
}

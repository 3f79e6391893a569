import type { FieldCondition, FieldValue, SearchDocument, SearchSort } from '@frontdesk/core'
import { searchComparator } from '@frontdesk/core'
import { CompiledFilter } from './compiled-filter.ts'
import type { DocsByNumber, StoredDocs } from './doc-table.ts'
import { DocTable, parseValues } from './doc-table.ts'

/** At most this many columns per tenant index (~4 bytes per item each); other fields are read from the items. */
export const MAX_COLUMNS = 32

/**
 * The values of a list of custom fields by document number, dictionary-coded: `codes[doc]` is
 * the code of the value of the first of the fields the item holds (-1: none of them), and
 * `values[code]`, `fieldOf[code]` the value and the index of its field in `fieldIds`. A filter
 * entry or a sort names a field by its name, which is a field of its own in each category
 * (the benchmark's `event_date` is twenty field ids): one column over all of them lets a
 * filter or a sort read one `Int32Array` per candidate instead of each candidate's object, or
 * one column per field id, and judge or rank each distinct value once. Items holding several
 * of the fields (a field of another category left in `fields`) are listed in `several`, so
 * that a filter can still accept them by any of their values, as core does.
 */
export class FieldColumn {
  readonly fieldIds: readonly string[]
  codes: Int32Array
  readonly values: FieldValue[] = []
  readonly fieldOf: number[] = []
  /** Documents holding more than one of the fields. */
  readonly several = new Set<number>()
  readonly #dictionaries: Map<FieldValue, number>[]
  // Sort ranks of the codes (see `ranks`), valid for `#rankedValues` values.
  #ranks = new Float64Array(0)
  #rankedValues = -1

  constructor(fieldIds: readonly string[], capacity: number) {
    this.fieldIds = fieldIds
    this.codes = new Int32Array(capacity)
    this.#dictionaries = fieldIds.map(() => new Map())
  }

  /**
   * Records the values of the live items of `table` restored from a snapshot from its field
   * columns, not parsing the items (the others' codes are left as they are: -1 for a new column).
   */
  fillStored(table: DocTable, stored: StoredDocs): void {
    const numbers = new Int32Array(stored.count).fill(-1)
    for (let number = 0; number < table.length; number++) {
      const at = table.storedAt(number)
      if (at >= 0 && table.has(number)) numbers[at] = number
    }
    for (let f = 0; f < this.fieldIds.length; f++) {
      const section = stored.fields.find((field) => field.id === this.fieldIds[f])
      if (section === undefined) continue
      const values = parseValues(section)
      for (let i = 0; i < section.docs.length; i++) {
        const number = numbers[section.docs[i] ?? 0] ?? -1
        const value = values[section.codes[i] ?? 0]
        if (number < 0 || value === undefined) continue
        if ((this.codes[number] ?? -1) >= 0) this.several.add(number)
        else this.codes[number] = this.#code(f, value)
      }
    }
  }

  /** Records document `number`'s values (its arrays already large enough); `undefined`: a dead document. */
  set(number: number, doc: SearchDocument | undefined): void {
    this.several.delete(number)
    let code = -1
    if (doc !== undefined) {
      const fields = doc.fields
      for (let f = 0; f < this.fieldIds.length; f++) {
        const fieldId = this.fieldIds[f] ?? ''
        if (!Object.hasOwn(fields, fieldId)) continue
        const value = fields[fieldId]
        if (value === undefined) continue
        if (code >= 0) {
          this.several.add(number)
          break
        }
        code = this.#code(f, value)
      }
    }
    this.codes[number] = code
  }

  /**
   * Each code's rank in the order core's `searchComparator` gives the values of a sort by
   * these fields, ascending: equal values have equal ranks. Computed when asked after new
   * values came (a few thousand distinct values at most, sorted once).
   */
  ranks(): Float64Array {
    if (this.#rankedValues === this.values.length) return this.#ranks
    // Core's comparator on items holding one value each (and the same id, so that only values count).
    const compare = searchComparator({ kind: 'field', fieldIds: this.fieldIds.slice(0, 1), direction: 'asc' })
    const fieldId = this.fieldIds[0] ?? ''
    const holders = this.values.map((value, code) => ({ code, doc: { id: '', category_id: '', status: 'published' as const, published_at: null, tags: [], fields: { [fieldId]: value } }, score: 0 }))
    holders.sort(compare)
    const ranks = new Float64Array(this.values.length)
    let rank = 0
    holders.forEach((holder, i) => {
      const before = holders[i - 1]
      if (before !== undefined && compare(before, holder) !== 0) rank++
      ranks[holder.code] = rank
    })
    this.#ranks = ranks
    this.#rankedValues = this.values.length
    return ranks
  }

  #code(field: number, value: FieldValue): number {
    const dictionary = this.#dictionaries[field] ?? new Map<FieldValue, number>()
    let code = dictionary.get(value)
    if (code === undefined) {
      code = this.values.length
      this.values.push(value)
      this.fieldOf.push(field)
      dictionary.set(value, code)
    }
    return code
  }
}

/**
 * The custom-field columns of one tenant index, by list of field ids, made on first use by a
 * filter or a sort and kept up to date as items are added (`add`); `clear` drops them (a
 * compaction renumbers items).
 */
export class FieldColumns {
  readonly #columns = new Map<string, FieldColumn>()

  /** Records a newly numbered item in every existing column (`capacity`: the length the arrays need). */
  add(number: number, doc: SearchDocument, capacity: number): void {
    for (const column of this.#columns.values()) {
      if (column.codes.length < capacity) {
        const grown = new Int32Array(capacity)
        grown.set(column.codes)
        column.codes = grown
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
   * `undefined` when they would need more than `MAX_COLUMNS` columns (the caller then reads
   * the items). `docs` are the items by number, to fill a new column.
   */
  compile(filters: readonly FieldCondition[], docs: DocsByNumber): CompiledFilter | undefined {
    const columns: FieldColumn[] = []
    for (const condition of filters) {
      const column = this.column([...condition.byFieldId.keys()], docs)
      if (column === undefined) return undefined
      columns.push(column)
    }
    return new CompiledFilter(filters, columns, docs)
  }

  /** The column of a sort by custom fields, or `undefined` beyond `MAX_COLUMNS`. */
  sortColumn(sort: Extract<SearchSort, { kind: 'field' }>, docs: DocsByNumber): FieldColumn | undefined {
    return this.column(sort.fieldIds, docs)
  }

  /**
   * The column of these fields (in this order), made when first asked for (a snapshot's items
   * from its field columns, see `DocTable`); `undefined` beyond `MAX_COLUMNS`.
   */
  column(fieldIds: readonly string[], docs: DocsByNumber): FieldColumn | undefined {
    const key = fieldIds.join('\u0000')
    let column = this.#columns.get(key)
    if (column !== undefined) return column
    if (this.#columns.size >= MAX_COLUMNS) return undefined
    column = new FieldColumn(fieldIds, Math.max(1024, docs.length))
    const stored = docs instanceof DocTable ? docs.stored : null
    if (stored === null || !(docs instanceof DocTable)) for (let number = 0; number < docs.length; number++) column.set(number, docs.at(number))
    else {
      column.codes.fill(-1)
      for (let number = 0; number < docs.length; number++) if (docs.storedAt(number) < 0) column.set(number, docs.at(number))
      column.fillStored(docs, stored)
    }
    this.#columns.set(key, column)
    return column
  }
}

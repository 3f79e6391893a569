import type { FieldValue, SearchDocument } from '@frontdesk/core'
import { visibleSince } from '@frontdesk/core'
import { publishedKey } from './published-keys.ts'

/** Items by document number, as filters, sorts and pages read them (`undefined`: a dead number). Arrays are such. */
export interface DocsByNumber {
  readonly length: number
  at(number: number): SearchDocument | undefined
}

/**
 * One custom field of a snapshot's items as a column: the items holding it (`docs`, their
 * numbers in the snapshot, ascending) and the code of each one's value (`codes`), the values
 * themselves the JSON array `values` (distinct ones, read when the field is first filtered or
 * sorted by).
 */
export interface FieldSection {
  id: string
  docs: Uint32Array
  codes: Uint32Array
  /** `JSON.stringify` of the distinct values, as UTF-8. */
  values: Uint8Array
  /** Number of distinct values. */
  distinct: number
}

/**
 * A snapshot's items as columns, what a start reads instead of one object per item (see
 * `DocTable`): what every search needs of each item as typed arrays by number, the ids as
 * one text, and each item's own JSON as one block of bytes with the end of each, parsed
 * when the item itself is first needed (a page of hits, a tag filter). `json` is one block
 * once decoded; a writer may hand it in pieces, read as they are written (an import's).
 */
export interface DocColumns {
  count: number
  /** The first `ordered` items have strictly increasing ids (see `TenantSearchIndex`). */
  ordered: number
  /** Category ids by the numbers `categoryOf` holds. */
  categoryIds: string[]
  /** Core's `visibleSince` of each item (NaN: never). */
  visibleFrom: Float64Array
  /** `publishedKey` of each item's `published_at`. */
  published: Float64Array
  categoryOf: Uint32Array
  /** The ids, one after the other, and where each ends (in UTF-16 code units). */
  ids: string
  idEnds: Uint32Array
  /** Each item's tags as codes into `tagNames`, one item after the other, and where each item's end. */
  tagNames: string[]
  tagCodes: Uint32Array
  tagEnds: Uint32Array
  /** Where each item's JSON ends in `json` (bytes). */
  jsonEnds: Float64Array
  jsonBytes: number
  json: Uint8Array | Iterable<Uint8Array>
  fields: FieldSection[]
}

/** `DocColumns` as read from a snapshot: the items' JSON as one block. */
export type StoredDocs = DocColumns & { json: Uint8Array }

/**
 * The items of a tenant index by document number: those restored from a snapshot stay as the
 * snapshot's bytes (`StoredDocs`, "stored" items, by their number there) until one is asked
 * for, then parsed and kept; items indexed since are objects. A start thus makes no object per
 * item (1,000,000 of them took ~3.7 s to parse and ~1.5 s to index). Nor a map of every id: the
 * stored items the snapshot holds in id order (all of a build's or a first import's, the live
 * ones of a compacted index but those indexed after it) are found by a binary search of their
 * ids, the others in a map made on the first lookup (a map of 1,000,000 ids took ~2.5 s).
 */
export class DocTable implements DocsByNumber {
  readonly #stored: StoredDocs | null
  /** Parses stored items' JSON without a copy of their bytes. */
  readonly #bytes: Buffer | null
  /** By number: the item (parsed or added), `null` once dead, `undefined` for a stored item not parsed yet. */
  #docs: (SearchDocument | null | undefined)[]
  /** By number: the item's number among the stored ones, -1 for an added one. */
  #storedAt: Int32Array
  /** By stored number: the item's number, -1 once dead. */
  #numberOfStored: Int32Array
  /** The live items not among the stored ones in id order (see `#inIdOrder`), by id; made on the first lookup. */
  #others: Map<string, number> | null = null
  #live: number

  constructor(stored: StoredDocs | null = null) {
    this.#stored = stored
    this.#bytes = stored === null ? null : Buffer.from(stored.json.buffer, stored.json.byteOffset, stored.json.byteLength)
    const count = stored?.count ?? 0
    this.#live = count
    this.#docs = new Array<SearchDocument | null | undefined>(count)
    this.#storedAt = new Int32Array(Math.max(1024, count + (count >>> 3)))
    this.#numberOfStored = new Int32Array(count)
    for (let n = 0; n < count; n++) {
      this.#storedAt[n] = n
      this.#numberOfStored[n] = n
    }
  }

  /** Numbers given (live or dead). */
  get length(): number {
    return this.#docs.length
  }

  /** Live items. */
  get live(): number {
    return this.#live
  }

  /** The stored items this table was restored from (their numbers there: `storedAt`). */
  get stored(): StoredDocs | null {
    return this.#stored
  }

  /** Item `number`, `undefined` when dead or never given. */
  at(number: number): SearchDocument | undefined {
    const doc = this.#docs[number]
    if (doc !== undefined) return doc ?? undefined
    const at = number < this.#docs.length ? (this.#storedAt[number] ?? -1) : -1
    if (at < 0 || this.#stored === null || this.#bytes === null) return undefined
    const ends = this.#stored.jsonEnds
    const parsed = JSON.parse(this.#bytes.toString('utf8', at === 0 ? 0 : (ends[at - 1] ?? 0), ends[at] ?? 0)) as SearchDocument
    this.#docs[number] = parsed
    return parsed
  }

  /** Whether `number` holds a live item. */
  has(number: number): boolean {
    return number < this.#docs.length && this.#docs[number] !== null
  }

  /** Item `number`'s id (not parsing a stored item). */
  id(number: number): string {
    const doc = this.#docs[number]
    if (doc !== undefined && doc !== null) return doc.id
    const at = this.storedAt(number)
    return at < 0 || this.#stored === null ? '' : storedId(this.#stored, at)
  }

  /** Whether item `number` (live) holds one of `tags` (not parsing a stored item). */
  hasTag(number: number, tags: readonly string[]): boolean {
    const doc = this.#docs[number]
    if (doc !== undefined && doc !== null) return tags.some((tag) => doc.tags.includes(tag))
    const at = this.storedAt(number)
    const stored = this.#stored
    if (at < 0 || stored === null) return false
    const ends = stored.tagEnds
    for (let i = at === 0 ? 0 : (ends[at - 1] ?? 0); i < (ends[at] ?? 0); i++) if (tags.includes(stored.tagNames[stored.tagCodes[i] ?? 0] ?? '')) return true
    return false
  }

  /** Item `number`'s number among the stored items, -1 when it was added since (or is dead and was). */
  storedAt(number: number): number {
    return number < this.#docs.length ? (this.#storedAt[number] ?? -1) : -1
  }

  /** The number of the live item with this id. */
  numberOf(id: string): number | undefined {
    const other = this.#othersById().get(id)
    if (other !== undefined || this.#stored === null) return other
    // Hint: a stored item in id order is live under one number at most; one changed since is dead there and found among the others.
    let low = 0
    let high = this.#inIdOrder()
    while (low < high) {
      const middle = (low + high) >>> 1
      const found = storedId(this.#stored, middle)
      if (found === id) {
        const number = this.#numberOfStored[middle] ?? -1
        return number < 0 ? undefined : number
      }
      if (found < id) low = middle + 1
      else high = middle
    }
    return undefined
  }

  /** Gives `doc` the next number. */
  add(doc: SearchDocument): number {
    const number = this.#docs.length
    if (number >= this.#storedAt.length) {
      const grown = new Int32Array(this.#storedAt.length * 2)
      grown.set(this.#storedAt)
      this.#storedAt = grown
    }
    this.#storedAt[number] = -1
    this.#docs.push(doc)
    this.#others?.set(doc.id, number)
    this.#live++
    return number
  }

  /** Kills item `number` (live). */
  remove(number: number): void {
    const id = this.id(number)
    if (this.#others?.get(id) === number) this.#others.delete(id)
    const at = this.storedAt(number)
    if (at >= 0) this.#numberOfStored[at] = -1
    this.#docs[number] = null
    this.#live--
  }

  /** Drops the dead numbers, the live items keeping their order; answers each old number's new one (-1: dead). Parses nothing. */
  compact(): Int32Array {
    const docs = this.#docs
    const renumber = new Int32Array(docs.length).fill(-1)
    const kept: (SearchDocument | null | undefined)[] = new Array<SearchDocument | null | undefined>(this.#live)
    const storedAt = new Int32Array(Math.max(1024, this.#live + (this.#live >>> 3)))
    let next = 0
    for (let old = 0; old < docs.length; old++) {
      if (docs[old] === null) continue
      renumber[old] = next
      kept[next] = docs[old]
      const at = this.#storedAt[old] ?? -1
      storedAt[next] = at
      if (at >= 0) this.#numberOfStored[at] = next
      next++
    }
    this.#docs = kept
    this.#storedAt = storedAt
    if (this.#others !== null) for (const [id, number] of this.#others) this.#others.set(id, renumber[number] ?? -1)
    return renumber
  }

  /** How many stored items, from the first, have strictly increasing ids (binary-searched by `numberOf`). */
  #inIdOrder(): number {
    return this.#stored?.ordered ?? 0
  }

  #othersById(): Map<string, number> {
    if (this.#others !== null) return this.#others
    const others = new Map<string, number>()
    const ordered = this.#inIdOrder()
    for (let n = 0; n < this.#docs.length; n++) {
      const at = this.storedAt(n)
      if (this.#docs[n] !== null && (at < 0 || at >= ordered)) others.set(this.id(n), n)
    }
    this.#others = others
    return others
  }
}

/** Stored item `at`'s id. */
function storedId(stored: StoredDocs, at: number): string {
  return stored.ids.slice(at === 0 ? 0 : (stored.idEnds[at - 1] ?? 0), stored.idEnds[at] ?? 0)
}

/** A growable column of int32. */
class Ints {
  values = new Int32Array(64)
  length = 0

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.length++] = value
  }
}

/** A growable column of float64. */
class Floats {
  values = new Float64Array(1024)
  length = 0

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.length++] = value
  }
}

/** One field's values as a writer collects them: by item (its number in the writer), the code of its value. */
interface FieldEntries {
  docs: Ints
  codes: Ints
  values: FieldValue[]
  dictionary: Map<FieldValue, number>
}

/**
 * Collects `DocColumns` of items given one after the other (numbered 0, 1, … in that order),
 * as objects with the length of their JSON, or as stored items of a `DocTable`'s snapshot
 * copied without being parsed; `finish` puts them in the snapshot's order. The items' JSON
 * itself is the caller's to write (objects: `JSON.stringify`; stored ones: their bytes).
 */
export class DocColumnsWriter {
  readonly #ids: string[] = []
  readonly #visibleFrom = new Floats()
  readonly #published = new Floats()
  readonly #categoryOf = new Ints()
  readonly #jsonLengths = new Floats()
  /** Tags by item: how many, and their codes in `#tagNumbers`, one item after the other. */
  readonly #tagCounts = new Ints()
  readonly #tagCodes = new Ints()
  readonly #tagNumbers = new Map<string, number>()
  readonly #categoryNumbers = new Map<string, number>()
  readonly #fields = new Map<string, FieldEntries>()
  /** Stored items copied: by their number in the snapshot, the writer's number (-1: not copied). */
  #copied: Int32Array | null = null
  #stored: StoredDocs | null = null

  get count(): number {
    return this.#ids.length
  }

  /** Adds an item whose JSON (`JSON.stringify(doc)`) is `jsonLength` bytes. */
  add(doc: SearchDocument, jsonLength: number): void {
    const number = this.#ids.length
    this.#ids.push(doc.id)
    this.#visibleFrom.push(visibleSince(doc))
    this.#published.push(publishedKey(doc.published_at))
    this.#categoryOf.push(this.#category(doc.category_id))
    this.#jsonLengths.push(jsonLength)
    this.#tagCounts.push(doc.tags.length)
    for (const tag of doc.tags) this.#tagCodes.push(this.#number(this.#tagNumbers, tag))
    for (const fieldId of Object.keys(doc.fields)) {
      const value = doc.fields[fieldId]
      if (value !== undefined) this.#entry(fieldId, number, value)
    }
  }

  /** Adds stored item `at` of `stored` (every stored item added comes from the same snapshot). */
  addStored(stored: StoredDocs, at: number): void {
    if (this.#stored !== stored) {
      if (this.#stored !== null) throw new Error('A snapshot writer copies the items of one snapshot')
      this.#stored = stored
      this.#copied = new Int32Array(stored.count).fill(-1)
    }
    const number = this.#ids.length
    if (this.#copied !== null) this.#copied[at] = number
    this.#ids.push(storedId(stored, at))
    this.#visibleFrom.push(stored.visibleFrom[at] ?? Number.NaN)
    this.#published.push(stored.published[at] ?? Number.NaN)
    this.#categoryOf.push(this.#category(stored.categoryIds[stored.categoryOf[at] ?? 0] ?? ''))
    const tagEnds = stored.tagEnds
    const tagsFrom = at === 0 ? 0 : (tagEnds[at - 1] ?? 0)
    this.#tagCounts.push((tagEnds[at] ?? 0) - tagsFrom)
    for (let i = tagsFrom; i < (tagEnds[at] ?? 0); i++) this.#tagCodes.push(this.#number(this.#tagNumbers, stored.tagNames[stored.tagCodes[i] ?? 0] ?? ''))
    const ends = stored.jsonEnds
    this.#jsonLengths.push((ends[at] ?? 0) - (at === 0 ? 0 : (ends[at - 1] ?? 0)))
  }

  /**
   * The columns of the items in `order` (the writer's numbers; `null`: all, in the order
   * given), with `json`, the items' JSON in that order. What does not follow from the items
   * and their order is made so (categories and each field's values numbered in the order
   * they first occur, fields in id order): the same items in the same order give the same
   * bytes whichever way they were given (an import's snapshot is a build's, byte for byte).
   */
  finish(order: Int32Array | null, json: Uint8Array | Iterable<Uint8Array>): DocColumns {
    this.#copyStoredFields()
    const count = order === null ? this.#ids.length : order.length
    const numberOf = (k: number) => (order === null ? k : (order[k] ?? 0))
    const position = new Int32Array(this.#ids.length).fill(-1)
    for (let k = 0; k < count; k++) position[numberOf(k)] = k
    // Where each item's tag codes start, by the writer's number.
    const tagStarts = new Float64Array(this.#ids.length + 1)
    for (let n = 0; n < this.#ids.length; n++) tagStarts[n + 1] = (tagStarts[n] ?? 0) + (this.#tagCounts.values[n] ?? 0)
    const allTagNames = [...this.#tagNumbers.keys()]
    const tagNumbers = new Int32Array(allTagNames.length).fill(-1)
    const tagNames: string[] = []
    const tagCodes = new Ints()
    const tagEnds = new Uint32Array(count)
    const visibleFrom = new Float64Array(count)
    const published = new Float64Array(count)
    const categoryOf = new Uint32Array(count)
    const categoryNumbers = new Int32Array(this.#categoryNumbers.size).fill(-1)
    const categoryIds: string[] = []
    const allCategoryIds = [...this.#categoryNumbers.keys()]
    const idEnds = new Uint32Array(count)
    const jsonEnds = new Float64Array(count)
    const ids: string[] = []
    let idEnd = 0
    let jsonEnd = 0
    let ordered = 0
    for (let k = 0; k < count; k++) {
      const n = numberOf(k)
      const id = this.#ids[n] ?? ''
      if (ordered === k && (k === 0 || (ids[k - 1] ?? '') < id)) ordered++
      ids.push(id)
      idEnd += id.length
      idEnds[k] = idEnd
      jsonEnd += this.#jsonLengths.values[n] ?? 0
      jsonEnds[k] = jsonEnd
      visibleFrom[k] = this.#visibleFrom.values[n] ?? Number.NaN
      published[k] = this.#published.values[n] ?? Number.NaN
      const category = this.#categoryOf.values[n] ?? 0
      if ((categoryNumbers[category] ?? -1) < 0) {
        categoryNumbers[category] = categoryIds.length
        categoryIds.push(allCategoryIds[category] ?? '')
      }
      categoryOf[k] = categoryNumbers[category] ?? 0
      for (let i = tagStarts[n] ?? 0; i < (tagStarts[n + 1] ?? 0); i++) {
        const tag = this.#tagCodes.values[i] ?? 0
        if ((tagNumbers[tag] ?? -1) < 0) {
          tagNumbers[tag] = tagNames.length
          tagNames.push(allTagNames[tag] ?? '')
        }
        tagCodes.push(tagNumbers[tag] ?? 0)
      }
      tagEnds[k] = tagCodes.length
    }
    const encoder = new TextEncoder()
    const fields: FieldSection[] = []
    for (const id of [...this.#fields.keys()].sort()) {
      const entries = this.#fields.get(id)
      if (entries === undefined) continue
      // The entries of items in `order`, by their place in it (as typed arrays: millions of them in a large import).
      const places = new Uint32Array(entries.docs.length)
      const kept = new Uint32Array(entries.docs.length)
      let length = 0
      let sorted = true
      for (let i = 0; i < entries.docs.length; i++) {
        const k = position[entries.docs.values[i] ?? 0] ?? -1
        if (k < 0) continue
        if (length > 0 && k < (places[length - 1] ?? 0)) sorted = false
        places[length] = k
        kept[length++] = i
      }
      if (length === 0) continue
      const byPlace = kept.subarray(0, length)
      if (!sorted) {
        const placeOf = new Uint32Array(entries.docs.length)
        for (let j = 0; j < length; j++) placeOf[kept[j] ?? 0] = places[j] ?? 0
        byPlace.sort((a, b) => (placeOf[a] ?? 0) - (placeOf[b] ?? 0))
        for (let j = 0; j < length; j++) places[j] = placeOf[byPlace[j] ?? 0] ?? 0
      }
      const recoded = new Int32Array(entries.values.length).fill(-1)
      const values: FieldValue[] = []
      const codes = new Uint32Array(length)
      for (let j = 0; j < length; j++) {
        const code = entries.codes.values[byPlace[j] ?? 0] ?? 0
        if ((recoded[code] ?? -1) < 0) {
          recoded[code] = values.length
          values.push(entries.values[code] as FieldValue)
        }
        codes[j] = recoded[code] ?? 0
      }
      fields.push({ id, docs: places.slice(0, length), codes, values: encoder.encode(JSON.stringify(values)), distinct: values.length })
    }
    return { count, ordered, categoryIds, visibleFrom, published, categoryOf, ids: ids.join(''), idEnds, tagNames, tagCodes: Uint32Array.from(tagCodes.values.subarray(0, tagCodes.length)), tagEnds, jsonEnds, jsonBytes: jsonEnd, json, fields }
  }

  /** The field values of the stored items copied, from the snapshot's columns. */
  #copyStoredFields(): void {
    const stored = this.#stored
    const copied = this.#copied
    if (stored === null || copied === null) return
    for (const section of stored.fields) {
      const values = parseValues(section)
      for (let i = 0; i < section.docs.length; i++) {
        const number = copied[section.docs[i] ?? 0] ?? -1
        const value = values[section.codes[i] ?? 0]
        if (number >= 0 && value !== undefined) this.#entry(section.id, number, value)
      }
    }
    this.#stored = null
    this.#copied = null
  }

  #category(id: string): number {
    return this.#number(this.#categoryNumbers, id)
  }

  /** The number of `key` in `numbers`, a new one (the next) when it has none. */
  #number(numbers: Map<string, number>, key: string): number {
    let number = numbers.get(key)
    if (number === undefined) {
      number = numbers.size
      numbers.set(key, number)
    }
    return number
  }

  #entry(fieldId: string, number: number, value: FieldValue): void {
    let entries = this.#fields.get(fieldId)
    if (entries === undefined) {
      entries = { docs: new Ints(), codes: new Ints(), values: [], dictionary: new Map() }
      this.#fields.set(fieldId, entries)
    }
    let code = entries.dictionary.get(value)
    if (code === undefined) {
      code = entries.values.length
      entries.values.push(value)
      entries.dictionary.set(value, code)
    }
    entries.docs.push(number)
    entries.codes.push(code)
  }
}

/** A field section's distinct values. */
export function parseValues(section: FieldSection): FieldValue[] {
  const values = JSON.parse(new TextDecoder().decode(section.values)) as unknown
  if (!Array.isArray(values) || values.length !== section.distinct) throw new Error(`The values of field ${section.id} are damaged`)
  return values as FieldValue[]
}

import type { CategoryRecord, ContentRecord, QueryTerm, SearchDocument, SearchQuery, SearchResult } from '@frontdesk/core'
import { indexTerms, matchesSearch, searchComparator, stripHtml } from '@frontdesk/core'
import MiniSearch from 'minisearch'
import type { AsPlainObject, Options, Query } from 'minisearch'

/** The text of an item as MiniSearch indexes it, one string per searched field. */
interface IndexedText {
  id: string
  title: string
  summary: string
  body: string
  tags: string
  custom: string
}

/** Field weights (CONTRACT §5: title highest). */
export const FIELD_BOOST = { title: 4, tags: 2, summary: 2, custom: 1.5, body: 1 } as const

const FIELDS = Object.keys(FIELD_BOOST)

/** Changes whenever what this file puts in MiniSearch changes: older snapshots are then rebuilt. */
export const INDEX_FORMAT = 1

/** A tenant index as plain data, for a snapshot file (see `toSnapshot`). */
export interface TenantSnapshot {
  categories: CategoryRecord[]
  docs: SearchDocument[]
  index: AsPlainObject
}

const MINI_OPTIONS: Options<IndexedText> = {
  idField: 'id',
  fields: FIELDS,
  storeFields: [],
  // Hint: core's analyzer does all the work; terms reach MiniSearch already normalised.
  tokenize: (text) => indexTerms(text),
  processTerm: (term) => term,
  searchOptions: { tokenize: (text) => [text], processTerm: (term) => term, boost: { ...FIELD_BOOST } },
}

/**
 * One tenant's full-text index: a MiniSearch instance (scores use this tenant's documents
 * only) plus what filters and sorts need of each item and the tenant's categories. Every
 * item is indexed whatever its status; visibility is decided at query time by core's
 * `matchesSearch`, so that scheduled items appear by themselves and a category switched
 * off or on needs no re-indexing.
 */
export class TenantSearchIndex {
  readonly #mini: MiniSearch<IndexedText>
  readonly #docs = new Map<string, SearchDocument>()
  readonly #categories = new Map<string, CategoryRecord>()

  /** An empty index knowing the tenant's categories, or one restored from `toSnapshot()` data. */
  constructor(categories: readonly CategoryRecord[], restored?: Pick<TenantSnapshot, 'docs' | 'index'>) {
    for (const category of categories) this.#categories.set(category.id, category)
    this.#mini = restored === undefined ? new MiniSearch<IndexedText>(MINI_OPTIONS) : MiniSearch.loadJS<IndexedText>(restored.index, MINI_OPTIONS)
    for (const doc of restored?.docs ?? []) this.#docs.set(doc.id, doc)
  }

  /** The index as plain data (JSON-safe), to restore with the constructor. */
  toSnapshot(): TenantSnapshot {
    return { categories: [...this.#categories.values()], docs: [...this.#docs.values()], index: this.#mini.toJSON() }
  }

  /** Number of items indexed (any status). */
  get size(): number {
    return this.#docs.size
  }

  /** The category as last seen, or `undefined`. */
  category(id: string): CategoryRecord | undefined {
    return this.#categories.get(id)
  }

  /** Records a category's current state (`null`: it is gone). */
  setCategory(id: string, category: CategoryRecord | null): void {
    if (category === null) this.#categories.delete(id)
    else this.#categories.set(id, category)
  }

  /** Adds or replaces an item. */
  upsert(record: ContentRecord): void {
    const text = indexedText(record, this.#categories.get(record.category_id))
    if (this.#mini.has(record.id)) this.#mini.replace(text)
    else this.#mini.add(text)
    this.#docs.set(record.id, {
      id: record.id,
      category_id: record.category_id,
      status: record.status,
      published_at: record.published_at,
      tags: record.tags.map((tag) => tag.name),
      fields: record.fields,
    })
  }

  /** Removes an item (no-op when absent). */
  remove(id: string): void {
    if (this.#mini.has(id)) this.#mini.discard(id)
    this.#docs.delete(id)
  }

  /** Ids of the indexed items of a category. */
  idsInCategory(categoryId: string): string[] {
    return [...this.#docs.values()].filter((doc) => doc.category_id === categoryId).map((doc) => doc.id)
  }

  /** One page of visible matching items, as the search port describes. */
  search(query: SearchQuery): SearchResult {
    if (query.terms.length === 0) return { total: 0, hits: [] }
    const results = this.#mini.search({ combineWith: 'AND', queries: query.terms.map(termQuery) })
    const matching: { doc: SearchDocument; score: number }[] = []
    for (const result of results) {
      const doc = this.#docs.get(String(result.id))
      if (doc === undefined) continue
      const category = this.#categories.get(doc.category_id)
      if (matchesSearch(doc, category?.active === true, query)) matching.push({ doc, score: result.score })
    }
    matching.sort(searchComparator(query.sort))
    return {
      total: matching.length,
      hits: matching.slice(query.from, query.from + query.size).map(({ doc, score }) => ({ id: doc.id, score })),
    }
  }
}

/** CONTRACT §5 query semantics in MiniSearch terms (see core's `QueryTerm`). */
function termQuery(term: QueryTerm): Query {
  if (term.kind === 'word') return { queries: [term.term], prefix: true, fuzzy: term.fuzzy === 1 ? 1 : false }
  return { queries: [...new Set(term.grams)], combineWith: 'AND', prefix: term.prefix, fuzzy: false }
}

function indexedText(record: ContentRecord, category: CategoryRecord | undefined): IndexedText {
  const custom: string[] = []
  for (const field of category?.fields ?? []) {
    if (field.type !== 'text' && field.type !== 'select') continue
    const value = Object.hasOwn(record.fields, field.id) ? record.fields[field.id] : undefined
    if (typeof value === 'string') custom.push(value)
  }
  return {
    id: record.id,
    title: record.title,
    summary: record.summary,
    body: stripHtml(record.body),
    tags: record.tags.map((tag) => tag.name).join('\n'),
    custom: custom.join('\n'),
  }
}

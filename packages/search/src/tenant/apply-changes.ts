import type { CategoryRecord, ContentReader, ContentRecord, EntityChange, SearchDocument } from '@frontdesk/core'
import { searchedTexts } from '@frontdesk/core'
import type { AnalyzedDocs } from '../matching/analyzed-docs.ts'
import { AnalyzedDocsWriter, AnalyzedReader, analyzedDocStarts } from '../matching/analyzed-docs.ts'
import type { TenantSearchIndex } from './tenant-index.ts'
import { searchDocumentOf } from './tenant-index.ts'

/** What `applyChanges` reads of the store. */
export type ChangesReader = Pick<ContentReader, 'getCategory' | 'getContents' | 'listContents'>

/**
 * What applying changes reads from the store, read (and the items analysed) before the index
 * is at hand: a start does it while the thread pool reads the snapshot's file (see
 * `prepareChanges`).
 */
export interface PreparedChanges {
  /** Each changed category's current state (`null`: gone). */
  categories: Map<string, CategoryRecord | null>
  /** The items of the changed tags, in the order they were listed. */
  tagged: string[]
  /** The current record of each changed item and tagged item (`null`: gone). */
  records: Map<string, ContentRecord | null>
  /**
   * The records' indexed terms, when categories were given: each record's document (its
   * number and where it starts in `docs`), and the category record it was analysed with (the index's own must be
   * that very record for the terms to be used; else the item is analysed again).
   */
  analysed: { docs: AnalyzedDocs; at: Map<string, { doc: number; start: number; category: CategoryRecord | undefined }> } | null
}

/**
 * Reads what applying `changes` needs of the store, for an index that will hold `categories`
 * when they are applied (`null`: not known yet; then the items are read, not analysed).
 */
export async function prepareChanges(
  store: ChangesReader,
  tenantId: string,
  changes: readonly EntityChange[],
  pageSize: number,
  categories: readonly CategoryRecord[] | null,
): Promise<PreparedChanges> {
  const { contentIds, categoryIds, tagIds } = changedIds(tenantId, changes)
  const changedCategories = new Map<string, CategoryRecord | null>()
  for (const id of categoryIds) changedCategories.set(id, await store.getCategory(tenantId, id))
  const tagged = await taggedIds(store, tenantId, tagIds, pageSize)
  const records = await recordsOf(store, tenantId, [...new Set([...contentIds, ...tagged])], pageSize, new Map())
  if (categories === null) return { categories: changedCategories, tagged, records, analysed: null }
  // The categories the index will hold once the changed ones are recorded (see `applyChanges`).
  const byId = new Map(categories.map((category) => [category.id, category]))
  for (const [id, category] of changedCategories) {
    if (category === null) byId.delete(id)
    else byId.set(id, category)
  }
  const writer = new AnalyzedDocsWriter()
  const used: { id: string; category: CategoryRecord | undefined }[] = []
  for (const [id, record] of records) {
    if (record === null) continue
    const category = byId.get(record.category_id)
    writer.add(searchedTexts(record.title, record.summary, record.body, searchDocumentOf(record).tags, record.fields, category))
    used.push({ id, category })
  }
  const docs = writer.finish()
  const starts = analyzedDocStarts(docs, used.length)
  const at = new Map(used.map(({ id, category }, doc) => [id, { doc, start: starts[doc] ?? 0, category }]))
  return { categories: changedCategories, tagged, records, analysed: { docs, at } }
}

/**
 * Brings a tenant's index up to date with changes read from the change feed, by reading the
 * changed entities' current state from the store (so applying a change twice, or one the index
 * already reflects, is harmless): a content item is indexed again or removed; a category's
 * state is recorded, and its items are indexed again when its fields changed (their indexed
 * custom text depends on them; switching a category on or off needs nothing, visibility is
 * decided per search); a tag's items are indexed again (their tag names changed). With
 * `prepared` (by `prepareChanges`, for the same changes), what it read is used, and the
 * store is read only for what it could not know (the items of a category whose fields changed).
 */
export async function applyChanges(
  index: TenantSearchIndex,
  store: ChangesReader,
  tenantId: string,
  changes: readonly EntityChange[],
  pageSize: number,
  prepared?: PreparedChanges,
): Promise<void> {
  const { contentIds, categoryIds, tagIds } = changedIds(tenantId, changes)
  // Categories first: an item's indexed custom text depends on its category's fields.
  for (const id of categoryIds) {
    const before = index.category(id)
    const after = prepared === undefined ? await store.getCategory(tenantId, id) : (prepared.categories.get(id) ?? null)
    index.setCategory(id, after)
    if (JSON.stringify(before?.fields ?? null) !== JSON.stringify(after?.fields ?? null)) {
      for (const itemId of index.idsInCategory(id)) contentIds.add(itemId)
    }
  }
  for (const itemId of prepared?.tagged ?? (await taggedIds(store, tenantId, tagIds, pageSize))) contentIds.add(itemId)
  const ids = [...contentIds]
  const records = await recordsOf(store, tenantId, ids, pageSize, prepared?.records ?? new Map())
  const analysed = prepared?.analysed ?? null
  const reader = analysed === null ? null : new AnalyzedReader(analysed.docs)
  // Items analysed beforehand that follow each other as they were analysed are indexed together (`upsertAnalyzedAll`).
  let run: SearchDocument[] = []
  let last = -1
  const endRun = () => {
    if (reader !== null && run.length > 0) index.upsertAnalyzedAll(run, reader)
    run = []
  }
  for (const id of ids) {
    const record = records.get(id) ?? null
    // Hint: the terms analysed beforehand are the ones `upsert` would make only with the very category record the index holds now.
    const terms = record === null ? undefined : analysed?.at.get(id)
    if (record !== null && reader !== null && terms !== undefined && terms.category === index.category(record.category_id)) {
      if (run.length > 0 && terms.doc !== last + 1) endRun()
      if (run.length === 0) reader.at = terms.start
      run.push(searchDocumentOf(record))
      last = terms.doc
      continue
    }
    endRun()
    if (record === null) index.remove(id)
    else index.upsert(record)
  }
  endRun()
}

/** The tenant's changed items, categories and tags, each once, in the order the feed first names them. */
function changedIds(tenantId: string, changes: readonly EntityChange[]): { contentIds: Set<string>; categoryIds: Set<string>; tagIds: Set<string> } {
  const contentIds = new Set<string>()
  const categoryIds = new Set<string>()
  const tagIds = new Set<string>()
  for (const change of changes) {
    if (change.tenantId !== tenantId) continue
    if (change.entity === 'content') contentIds.add(change.id)
    else if (change.entity === 'category') categoryIds.add(change.id)
    else tagIds.add(change.id)
  }
  return { contentIds, categoryIds, tagIds }
}

/** The ids of the items holding any of the tags, tag after tag, each in id order (repeats left in). */
async function taggedIds(store: ChangesReader, tenantId: string, tagIds: Iterable<string>, pageSize: number): Promise<string[]> {
  const ids: string[] = []
  for (const tagId of tagIds) {
    let after: { value: string; id: string } | undefined
    for (;;) {
      const page = await store.listContents(tenantId, {
        visibility: { kind: 'all' },
        tagIds: [tagId],
        sort: { key: 'id', direction: 'asc' },
        ...(after === undefined ? {} : { after }),
        limit: pageSize,
      })
      for (const record of page) ids.push(record.id)
      const last = page[page.length - 1]
      if (page.length < pageSize || last === undefined) break
      after = { value: last.id, id: last.id }
    }
  }
  return ids
}

/** `known` with the current record of each of `ids` it lacks (`null`: gone), read a page at a time. */
async function recordsOf(store: ChangesReader, tenantId: string, ids: readonly string[], pageSize: number, known: ReadonlyMap<string, ContentRecord | null>): Promise<Map<string, ContentRecord | null>> {
  const records = new Map(known)
  // Hint: read a page at a time: a start replaying thousands of changes spent most of its time on one read per item.
  const missing = ids.filter((id) => !records.has(id))
  for (let from = 0; from < missing.length; from += pageSize) {
    const page = missing.slice(from, from + pageSize)
    const read = await store.getContents(tenantId, page)
    page.forEach((id, i) => records.set(id, read[i] ?? null))
  }
  return records
}

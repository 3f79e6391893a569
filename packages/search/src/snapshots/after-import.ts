import type { ContentRecord, FeedPosition, SearchDocument, SnapshotStore } from '@frontdesk/core'
import { searchedTexts } from '@frontdesk/core'
import { AnalyzedDocsWriter, analyzedDocStarts } from '../matching/analyzed-docs.ts'
import type { SearchEngineStore } from '../search-engine.ts'
import { createSearchEngine, DEFAULT_REBUILD_THRESHOLD } from '../search-engine.ts'
import { searchDocumentOf } from '../tenant/tenant-index.ts'
import { leadOf } from './snapshot-backlog.ts'
import { decodeSnapshotLead } from './snapshot-codec.ts'
import type { SnapshotDelta } from './snapshot-delta.ts'
import { decodeDelta, decodeDeltaLead, deltaName, encodeDelta } from './snapshot-delta.ts'

/** How `snapshotAfterImport` left the tenant's snapshot. */
export type SnapshotAfterImport =
  /** Left as it was: a start restores it (and its delta) and replays the few changes after it. */
  | 'behind'
  /** Left as it was, and its delta written: every change up to the import's is in the two. */
  | 'delta'
  /** Written: it reflects every committed change. */
  | 'saved'
  /** It should have been written and could not be (read-only directory, full disk…): the next start builds from the store. */
  | 'unwritable'

/** Options of `snapshotAfterImport`. */
export interface SnapshotAfterImportOptions {
  /**
   * The most changes a snapshot (with its delta) may be behind the feed and be left as it is;
   * at most, and by default, `DEFAULT_REBUILD_THRESHOLD` (what a start replays before it
   * rebuilds instead).
   */
  catchUpLimit?: number
  /** The most items a delta holds; beyond, the snapshot is written again. Default `DEFAULT_DELTA_ITEMS`. */
  deltaItems?: number
  /** As `SearchEngineOptions.memo`. */
  memo?: boolean
}

/**
 * The most items (changed or removed) a snapshot's delta holds by default: what a start
 * indexes again over the snapshot, in about a second (see DESIGN.md), and what the import
 * that writes the delta reads and writes, whatever the tenant holds.
 */
export const DEFAULT_DELTA_ITEMS = 20_000

/** Changes read from the feed at a time while a delta is made. */
const FEED_PAGE = 5000
/** Items read from the store at a time while a delta is made. */
const ITEM_PAGE = 500

/**
 * What an import does for search after its commit, so that the next start restores the
 * tenant's index from its snapshot instead of building it, at a cost that follows the changes
 * rather than the tenant: nothing, when the snapshot (with its delta, see `SnapshotDelta`) is
 * a usable one at most `catchUpLimit` changes behind the change feed (a start replays those;
 * it reads the two leads and that many feed entries). Beyond, the delta is written again with
 * every item changed since the snapshot (the old delta's items and those of the changes after
 * it, read from the store), so what the import reads and writes is bounded by `deltaItems`,
 * not by the tenant. Only without a usable snapshot, or with a delta that would hold more than
 * `deltaItems` items, is the snapshot itself written again: from the old one caught up when
 * the changes are few beside the tenant (at most a tenth of its items), else built from the
 * store. Servers merge a delta into the snapshot they write (on stop, see `SearchEngine.close`).
 */
export async function snapshotAfterImport(
  store: SearchEngineStore,
  snapshots: SnapshotStore,
  tenantId: string,
  options: SnapshotAfterImportOptions = {},
): Promise<SnapshotAfterImport> {
  const limit = catchUpLimitOf(options)
  const { base, deltaLead, behind } = await snapshotState(store, snapshots, tenantId, limit)
  if (base !== null && behind) return 'behind'
  if (base !== null && deltaLead !== undefined) {
    const old = deltaLead === null ? null : decodeDelta((await snapshots.read(deltaName(tenantId)).catch(() => null)) ?? new Uint8Array(), tenantId, base.position)
    const delta = await makeDelta(store, tenantId, base.position, old, Math.max(limit, Math.floor(options.deltaItems ?? DEFAULT_DELTA_ITEMS)))
    if (delta !== null) return (await snapshots.write(deltaName(tenantId), encodeDelta(delta)).catch(() => false)) ? 'delta' : 'unwritable'
  }
  const rebuildThreshold = Math.max(limit, Math.floor((base?.items ?? 0) / 10))
  const search = createSearchEngine({ store, snapshots, warmUp: false, rebuildThreshold, ...(options.memo === undefined ? {} : { memo: options.memo }) })
  try {
    return (await search.saveSnapshot(tenantId)) ? 'saved' : 'unwritable'
  } finally {
    await search.close().catch(() => undefined)
  }
}

/**
 * Whether `snapshotAfterImport` would leave the tenant's snapshot as it is ('behind'): it is
 * usable and at most `catchUpLimit` changes behind the feed. Reads what that check reads (two
 * leads, at most `catchUpLimit + 1` feed entries), so a caller can learn cheaply that there is
 * work to do, and do it elsewhere (`frontdesk import` hands it to a process of its own).
 */
export async function snapshotIsBehind(store: SearchEngineStore, snapshots: SnapshotStore, tenantId: string, options: Pick<SnapshotAfterImportOptions, 'catchUpLimit'> = {}): Promise<boolean> {
  const { base, behind } = await snapshotState(store, snapshots, tenantId, catchUpLimitOf(options))
  return base !== null && behind
}

/** `catchUpLimit` as it takes effect: never above what a start replays (a snapshot further behind is rebuilt by the start instead). */
function catchUpLimitOf(options: Pick<SnapshotAfterImportOptions, 'catchUpLimit'>): number {
  return Math.max(0, Math.min(DEFAULT_REBUILD_THRESHOLD, Math.floor(options.catchUpLimit ?? DEFAULT_REBUILD_THRESHOLD)))
}

/**
 * The tenant's snapshot lead (`null`: none usable), its delta's lead (`null`: none usable;
 * `undefined`: the feed no longer reaches back to them) and whether they are at most `limit`
 * changes behind the feed.
 */
async function snapshotState(store: SearchEngineStore, snapshots: SnapshotStore, tenantId: string, limit: number) {
  const base = await leadOf(snapshots, tenantId, (bytes) => decodeSnapshotLead(bytes))
  if (base === null) return { base, deltaLead: undefined, behind: false }
  const deltaLead = await leadOf(snapshots, deltaName(tenantId), (bytes) => decodeDeltaLead(bytes, tenantId, base.position))
  const batch = await store.readChanges(deltaLead?.position ?? base.position, limit + 1, tenantId)
  return { base, deltaLead: batch === null ? undefined : deltaLead, behind: batch !== null && batch.changes.length <= limit }
}

/**
 * The tenant's delta over its snapshot at `base`: `old` (the delta made over it before, if
 * any) with the items of every change after it, as the store holds them now, analysed (only
 * those: the old delta's others keep their analysed terms); the categories as they are now.
 * An item's indexed text depends on its category's fields and tag names, so the items of a
 * changed tag, and of a category whose fields may have changed (compared with the old
 * delta's; without one, any changed category), are in it too. `null` when it would
 * hold more than `most` items or the feed no longer reaches back (the snapshot is then written
 * again instead). The changes are read before the items, so the items reflect every change up
 * to the delta's position (maybe some after it: applying those again at a start is harmless).
 */
async function makeDelta(store: SearchEngineStore, tenantId: string, base: FeedPosition, old: SnapshotDelta | null, most: number): Promise<SnapshotDelta | null> {
  const contentIds = new Set<string>()
  const categoryIds = new Set<string>()
  const tagIds = new Set<string>()
  let position = old?.position ?? base
  for (;;) {
    const batch = await store.readChanges(position, FEED_PAGE, tenantId)
    if (batch === null) return null
    for (const change of batch.changes) {
      if (change.tenantId !== tenantId) continue
      if (change.entity === 'content') contentIds.add(change.id)
      else if (change.entity === 'category') categoryIds.add(change.id)
      else tagIds.add(change.id)
    }
    position = batch.position
    if (contentIds.size > most) return null
    if (!batch.more) break
  }
  const categories = await store.listCategories(tenantId)
  const fieldsBefore = new Map((old?.categories ?? []).map((category) => [category.id, JSON.stringify(category.fields)]))
  const regrouped = [...categoryIds].filter((id) => old === null || fieldsBefore.get(id) !== JSON.stringify(categories.find((category) => category.id === id)?.fields ?? null))
  const listed = async (query: { categoryIds?: string[]; tagIds?: string[] }) => {
    let after: { value: string; id: string } | undefined
    for (;;) {
      const page = await store.listContents(tenantId, { visibility: { kind: 'all' }, ...query, sort: { key: 'id', direction: 'asc' }, ...(after === undefined ? {} : { after }), limit: ITEM_PAGE, view: 'summary' })
      for (const record of page) contentIds.add(record.id)
      const last = page[page.length - 1]
      if (contentIds.size > most) return false
      if (page.length < ITEM_PAGE || last === undefined) return true
      after = { value: last.id, id: last.id }
    }
  }
  if (regrouped.length > 0 && !(await listed({ categoryIds: regrouped }))) return null
  for (const tagId of tagIds) if (!(await listed({ tagIds: [tagId] }))) return null
  // An item of the old delta not changed since keeps its analysed terms (its text, tags and category's fields are as they were).
  const records = new Map<string, ContentRecord | number | null>()
  const oldStarts = old === null ? [] : analyzedDocStarts(old.terms, old.items.length)
  old?.items.forEach((item, i) => records.set(item.id, i))
  for (const id of old?.removed ?? []) records.set(id, null)
  const ids = [...contentIds]
  for (let from = 0; from < ids.length; from += ITEM_PAGE) {
    const page = ids.slice(from, from + ITEM_PAGE)
    const read = await store.getContents(tenantId, page)
    page.forEach((id, i) => records.set(id, read[i] ?? null))
  }
  if (records.size > most) return null
  const byId = new Map(categories.map((category) => [category.id, category]))
  const items: SearchDocument[] = []
  const terms = new AnalyzedDocsWriter()
  const removed: string[] = []
  for (const [id, record] of records) {
    if (record === null) removed.push(id)
    else if (typeof record !== 'number') {
      const item = searchDocumentOf(record)
      items.push(item)
      terms.add(searchedTexts(record.title, record.summary, record.body, item.tags, record.fields, byId.get(record.category_id)))
    } else {
      const item = old?.items[record]
      if (old === null || item === undefined) continue
      items.push(item)
      terms.copy(old.terms, oldStarts[record] ?? 0)
    }
  }
  return { tenantId, base, position, categories, items, terms: terms.finish(), removed }
}

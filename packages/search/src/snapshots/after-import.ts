import type { SnapshotStore } from '@frontdesk/core'
import type { SearchEngineStore } from '../search-engine.ts'
import { createSearchEngine, DEFAULT_REBUILD_THRESHOLD } from '../search-engine.ts'
import { snapshotBacklog } from './snapshot-backlog.ts'

/** How `snapshotAfterImport` left the tenant's snapshot. */
export type SnapshotAfterImport =
  /** Left as it was: a start restores it and replays the few changes after it. */
  | 'behind'
  /** Written: it reflects every committed change. */
  | 'saved'
  /** It should have been written and could not be (read-only directory, full disk…): the next start builds from the store. */
  | 'unwritable'

/** Options of `snapshotAfterImport`. */
export interface SnapshotAfterImportOptions {
  /**
   * The most changes a snapshot may be behind the feed and be left as it is; at most, and by
   * default, `DEFAULT_REBUILD_THRESHOLD` (what a start replays before it rebuilds instead).
   */
  catchUpLimit?: number
  /** As `SearchEngineOptions.memo`. */
  memo?: boolean
}

/**
 * What an import does for search after its commit, so that the next start restores the
 * tenant's index from its snapshot instead of building it: nothing, when the snapshot is a
 * usable one at most `catchUpLimit` changes behind the change feed (a start replays those; it
 * reads the snapshot's lead and that many feed entries, whatever the tenant holds); else the
 * snapshot is written again, from the old one caught up when the changes are few beside the
 * tenant (at most a tenth of its items), else built from the store. Rewriting costs what the
 * tenant holds, so it happens once per `catchUpLimit` changes at most, however small each
 * import (servers also rewrite the snapshots they caught up, see `SearchEngine.close`).
 */
export async function snapshotAfterImport(
  store: SearchEngineStore,
  snapshots: SnapshotStore,
  tenantId: string,
  options: SnapshotAfterImportOptions = {},
): Promise<SnapshotAfterImport> {
  // Hint: never above what a start replays: a snapshot further behind is rebuilt by the start instead.
  const limit = Math.max(0, Math.min(DEFAULT_REBUILD_THRESHOLD, Math.floor(options.catchUpLimit ?? DEFAULT_REBUILD_THRESHOLD)))
  const backlog = await snapshotBacklog(store, snapshots, tenantId, limit)
  if (backlog !== null && backlog.changes <= limit) return 'behind'
  const rebuildThreshold = Math.max(limit, Math.floor((backlog?.items ?? 0) / 10))
  const search = createSearchEngine({ store, snapshots, warmUp: false, rebuildThreshold, ...(options.memo === undefined ? {} : { memo: options.memo }) })
  try {
    return (await search.saveSnapshot(tenantId)) ? 'saved' : 'unwritable'
  } finally {
    await search.close().catch(() => undefined)
  }
}

import type { SearchDocument } from './search.ts'

/** What a search index needs of one item: its search document and the raw text of its searched columns. */
export interface SearchSourceItem {
  doc: SearchDocument
  title: string
  summary: string
  /** HTML, as stored. */
  body: string
}

/**
 * Reads for building a search index from the store, range by range: lean (no meta, versions
 * or dates beyond `published_at`), so that a rebuild of 100,000 items reads only what it
 * indexes, and in id order, so that it can be split and resumed.
 */
export interface SearchSource {
  /**
   * At most `limit` items of the tenant (any status) with `id > after` (`null`: from the
   * first) and, with `before`, `id < before`, in id order (ids compared by code point, as
   * SQLite's `BINARY` and PostgreSQL's `"C"` collations do): tags by name in their order, field
   * values keyed by field id in that order, as `getContent` would give them.
   */
  readSearchItems(tenantId: string, range: { after: string | null; before?: string | null }, limit: number): Promise<SearchSourceItem[]>
  /** How many items the tenant has (any status). */
  countItems(tenantId: string): Promise<number>
}

/**
 * A place where a search engine keeps snapshots of its indexes between runs (one per
 * tenant), given explicitly by whoever starts the engine: a directory on local disk, or
 * nothing. Snapshots only save start-up time; losing one costs a rebuild.
 */
export interface SnapshotStore {
  /** The snapshot saved under `name`, or `null`. */
  read(name: string): Promise<Uint8Array | null>
  /**
   * Optional: the first `length` bytes (or fewer, when it is shorter) of the snapshot saved
   * under `name`, or `null`: what an import reads to learn how far behind the change feed a
   * snapshot is, without reading all of it. Without it, `read` is used.
   */
  readStart?(name: string, length: number): Promise<Uint8Array | null>
  /** Saves `chunks` (concatenated) under `name`, all or nothing; `false` when it could not (read-only, full disk). */
  write(name: string, chunks: readonly Uint8Array[]): Promise<boolean>
  /**
   * Optional, for a store that keeps snapshots as local files: a temporary file the snapshot of
   * `name` may be written to, by any thread of this process, and then made the snapshot
   * (`publish`) or dropped (`discard`). An import's indexing worker writes its snapshot there
   * while the import commits and publishes it once the commit succeeded; without it the
   * snapshot is written after the commit. `null` when none can be made (read-only, full disk).
   */
  stagingFile?(name: string): Promise<StagedSnapshotFile | null>
}

/** A snapshot being written to a temporary local file (see `SnapshotStore.stagingFile`). */
export interface StagedSnapshotFile {
  /** The file to write the snapshot's bytes to (created with mode 0600 by whoever writes it). */
  readonly path: string
  /** Makes the written file the snapshot, all or nothing; `false` (and the file removed) when it could not. */
  publish(): Promise<boolean>
  /** Removes the file (best effort). */
  discard(): Promise<void>
}

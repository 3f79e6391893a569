import type {
  CategoryRecord, ContentQuery, ContentRecord, ContentWriter, InquiryCategoryRecord, Tag, TagRecord,
} from '@frontdesk/core'
import type { Connection } from './connection/statement-cache.ts'
import type { LinkFilter, ListDriver } from './query/content-filters.ts'
import { inContentIdOrder } from './query/content-filters.ts'
import { listContentsSql } from './query/list-contents-sql.ts'
import { memoOf } from './query/data-version-memo.ts'
import type { DriverCandidate } from './query/list-drivers.ts'
import { listDriverCandidates } from './query/list-drivers.ts'
import type { ChangeSet } from './records/change-set.ts'
import type { WriteObserver } from './connection/transaction-observer.ts'
import { selectCategories, selectCategory, selectCategoryByCode, upsertCategory } from './records/categories.ts'
import type { ContentRow, TagLookup } from './records/contents.ts'
import { deleteContentRow, selectContent, selectContentBySlug, toContents, toSummaries, upsertContent } from './records/contents.ts'
import { selectContentsByIds } from './records/contents-by-ids.ts'
import {
  selectInquiryCategories, selectInquiryCategory, selectInquiryCategoryByCode, upsertInquiryCategory,
} from './records/inquiry-categories.ts'
import { selectTag, selectTagByName, selectTags, upsertTag } from './records/tags.ts'

/**
 * A list with a tag or field filter matching fewer items than this is read from that filter's
 * items (then sorted) rather than by walking an order index: at most this many link rows.
 */
const DRIVE_BELOW = 2_000

/** A smallest filter with at least this many items is merged with the others (see `#smallestFilter`). */
const MERGE_ABOVE = 200

/** At most this many link rows merged per item of the smallest filter (see `#smallestFilter`). */
const MERGE_ROWS_PER_ITEM = 12

/** How a `ContentAccess` runs one synchronous step (busy retries, transaction checks). */
export type StepRunner = <T>(step: () => T) => Promise<T>

/**
 * The content model over one connection: the store reads through it on the reader
 * connection, and a transaction reads and writes through it on the writer connection,
 * recording every write in the transaction's `ChangeSet` (revision and change log).
 */
export class ContentAccess implements ContentWriter {
  readonly #conn: Connection
  readonly #run: StepRunner
  readonly #changes: ChangeSet | null
  readonly #observer: WriteObserver | null

  constructor(conn: Connection, run: StepRunner, changes: ChangeSet | null = null, observer: WriteObserver | null = null) {
    this.#conn = conn
    this.#run = run
    this.#changes = changes
    this.#observer = observer
  }

  getCategory(tenantId: string, id: string): Promise<CategoryRecord | null> {
    return this.#run(() => selectCategory(this.#conn, tenantId, id))
  }

  getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null> {
    return this.#run(() => selectCategoryByCode(this.#conn, tenantId, code))
  }

  listCategories(tenantId: string): Promise<CategoryRecord[]> {
    return this.#run(() => selectCategories(this.#conn, tenantId))
  }

  getTag(tenantId: string, id: string): Promise<TagRecord | null> {
    return this.#run(() => selectTag(this.#conn, tenantId, id))
  }

  getTagByName(tenantId: string, name: string): Promise<TagRecord | null> {
    return this.#run(() => selectTagByName(this.#conn, tenantId, name))
  }

  listTags(tenantId: string): Promise<TagRecord[]> {
    return this.#run(() => selectTags(this.#conn, tenantId))
  }

  getContent(tenantId: string, id: string): Promise<ContentRecord | null> {
    return this.#run(() => selectContent(this.#conn, tenantId, id, this.#tagLookup(tenantId)))
  }

  getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    return this.#run(() => selectContentBySlug(this.#conn, tenantId, slug, this.#tagLookup(tenantId)))
  }

  getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    return this.#run(() => selectContentsByIds(this.#conn, tenantId, ids, this.#tagLookup(tenantId)))
  }

  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    return this.#run(() => this.#conn.snapshot(() => this.#listPage(tenantId, query)))
  }

  /** One page of a list, on one snapshot (the caller's). */
  #listPage(tenantId: string, query: ContentQuery): ContentRecord[] {
    const byIds = this.#tagNamesAsIds(tenantId, query)
    if (byIds === null) return []
    const parts = listContentsSql(tenantId, byIds, this.#smallestFilter(tenantId, byIds))
    const records: ContentRecord[] = []
    const tag = this.#tagLookup(tenantId)
    for (const { sql, params, summary } of parts) {
      const room = Math.floor(query.limit) - records.length
      if (room <= 0) break
      // Hint: each part's last parameter is its limit; later parts fill what is left.
      const values = [...params.slice(0, -1), room]
      if (summary) {
        // Hint: rows as arrays: building an object per row cost a third of a covered page's statement.
        records.push(...toSummaries(tenantId, this.#conn.prepare(sql).raw(true).all(...values) as unknown[][], tag))
      } else {
        records.push(...toContents(this.#conn.prepare(sql).all(...values) as ContentRow[], tag, query.view !== 'summary'))
      }
    }
    return records
  }

  /**
   * The query with its tag names replaced by the ids of those tags (names are unique per
   * tenant), so each item is checked with one index probe; `null` when a name is no tag's (the
   * list is empty).
   */
  #tagNamesAsIds(tenantId: string, query: ContentQuery): ContentQuery | null {
    const { tagNames, ...rest } = query
    if (tagNames === undefined || tagNames.length === 0) return query
    const ids: string[] = []
    for (const name of tagNames) {
      const tag = this.#remembered('tagByName', `${tenantId}\u0000${name}`, () => selectTagByName(this.#conn, tenantId, name))
      if (tag === null) return null
      ids.push(tag.id)
    }
    return { ...rest, tagIds: [...(query.tagIds ?? []), ...ids] }
  }

  /**
   * Tags by id for reads of one tenant's items (items hold their tags' ids): on the reader, the
   * tenant's table of tags read so far, remembered until the next commit like tag names — one
   * memo read per page, then a plain map read per tag (a memo read per tag was ~10 % of a
   * covered list page). In a transaction, read afresh.
   */
  #tagLookup(tenantId: string): TagLookup {
    const read: TagLookup = (tenant, id) => selectTag(this.#conn, tenant, id)
    if (this.#changes !== null) return read
    const table = memoOf(this.#conn).get('tagsById', tenantId, () => new Map<string, Tag | null>())
    return (tenant, id) => {
      if (tenant !== tenantId) return read(tenant, id)
      let tag = table.get(id)
      if (tag === undefined) {
        tag = read(tenant, id)
        table.set(id, tag === null ? null : Object.freeze(tag))
      }
      return tag
    }
  }

  /** On the reader, a value kept until the next commit (see `DataVersionMemo`); in a transaction, read afresh. */
  #remembered<T>(space: string, key: string, load: () => T): T {
    return this.#changes === null ? memoOf(this.#conn).get(space, key, load) : load()
  }

  /**
   * What the list is read from (see `listDriverCandidates`): the tag or field filter with the
   * fewest items, when it has fewer than `DRIVE_BELOW`; when even that one has `MERGE_ABOVE`
   * items or more, the intersection of it and the other filters with fewer than `DRIVE_BELOW`
   * items whose links come in content id order, unless they hold many more rows than it.
   */
  #smallestFilter(tenantId: string, query: ContentQuery): ListDriver | null {
    let best: DriverCandidate | null = null
    let fewest = DRIVE_BELOW
    const candidates = listDriverCandidates(tenantId, query, DRIVE_BELOW)
    for (const candidate of candidates) {
      const count = this.#count(candidate)
      if (count < fewest) {
        fewest = count
        best = candidate
      }
    }
    if (best === null || fewest < MERGE_ABOVE || !inContentIdOrder(query, best.driver)) return best?.driver ?? null
    // Hint: checking each of the smallest filter's items for another filter is an index probe
    // (~1.2 µs at 100k items); merging link rows read in order costs ~0.08 µs a row, so a merge
    // pays while it reads fewer than ~12 rows per item of the smallest filter.
    const parts: LinkFilter[] = [best.driver]
    let rows = fewest
    for (const candidate of candidates) {
      if (candidate === best || !inContentIdOrder(query, candidate.driver)) continue
      const count = this.#count(candidate)
      if (count >= DRIVE_BELOW) continue
      parts.push(candidate.driver)
      rows += count
    }
    return parts.length < 2 || rows > MERGE_ROWS_PER_ITEM * fewest ? best.driver : { kind: 'intersection', of: parts }
  }

  /**
   * A candidate's items, counted up to `DRIVE_BELOW`; remembered until the next commit (counts
   * only steer the plan, never the result).
   */
  #count({ sql, params }: DriverCandidate): number {
    // Hint: always to the same cap, so a filter has one entry whatever was counted before it: a
    // cap of "the fewest so far" made a key per combination (12,000 category + tag + field lists
    // of the benchmark overflowed the memo's 10,000 entries and were counted again and again).
    return this.#remembered('filterCount', `${sql}\u0000${JSON.stringify(params.slice(0, -1))}`, () =>
      this.#conn.prepare(sql).pluck().get(...params.slice(0, -1), DRIVE_BELOW) as number,
    )
  }

  getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
    return this.#run(() => selectInquiryCategory(this.#conn, tenantId, id))
  }

  getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
    return this.#run(() => selectInquiryCategoryByCode(this.#conn, tenantId, code))
  }

  listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]> {
    return this.#run(() => selectInquiryCategories(this.#conn, tenantId))
  }

  putCategory(record: CategoryRecord): Promise<void> {
    return this.#run(() => {
      upsertCategory(this.#conn, record)
      this.#changed(record.tenant_id, 'category', record.id)
      this.#observer?.category(record)
    })
  }

  putTag(record: TagRecord): Promise<void> {
    return this.#run(() => {
      upsertTag(this.#conn, record)
      this.#changed(record.tenant_id, 'tag', record.id)
      this.#observer?.tag(record)
    })
  }

  putContent(record: ContentRecord): Promise<void> {
    return this.#run(() => {
      upsertContent(this.#conn, record)
      this.#changed(record.tenant_id, 'content', record.id)
      this.#observer?.content(record)
    })
  }

  deleteContent(tenantId: string, id: string): Promise<boolean> {
    return this.#run(() => {
      const deleted = deleteContentRow(this.#conn, tenantId, id)
      if (deleted) {
        this.#changed(tenantId, 'content', id)
        this.#observer?.contentDeleted(tenantId, id)
      }
      return deleted
    })
  }

  putInquiryCategory(record: InquiryCategoryRecord): Promise<void> {
    return this.#run(() => {
      upsertInquiryCategory(this.#conn, record)
      this.#changed(record.tenant_id, null, record.id)
    })
  }

  #changed(tenantId: string, entity: 'content' | 'category' | 'tag' | null, id: string): void {
    if (this.#changes === null) throw new Error('Writes go through a transaction')
    this.#changes.add(tenantId, entity, id)
  }
}

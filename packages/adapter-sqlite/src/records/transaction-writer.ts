import type {
  CategoryRecord, ContentQuery, ContentRecord, ContentWriter, InquiryCategoryRecord, OutboxEvent, TagRecord, TransactionObserver,
} from '@frontdesk/core'
import { READ_AFRESH } from '../connection/data-version-memo.ts'
import type { Connection } from '../connection/statement-cache.ts'
import { listContentsPage, tagLookup } from '../query/list-page.ts'
import { selectCategories, selectCategory, selectCategoryByCode, upsertCategory } from './categories.ts'
import type { ChangedEntity, ChangeSet } from './change-set.ts'
import { insertEvents, selectEventSubscriptions, selectScheduledThrough, upsertScheduledThrough } from './events.ts'
import { deleteContentRow, selectContent, selectContentBySlug, upsertContent } from './contents.ts'
import { selectContentsByIds } from './contents-by-ids.ts'
import { replaceSynonymSet, selectSynonyms } from './synonyms.ts'
import { selectInquiryCategories, selectInquiryCategory, selectInquiryCategoryByCode, upsertInquiryCategory } from './inquiry-categories.ts'
import { selectTag, selectTagByName, selectTags, upsertTag } from './tags.ts'

/** How a `TransactionWriter` runs one synchronous step (checks that the transaction is still open, maps driver errors). */
export type StepRunner = <T>(step: () => T) => Promise<T>

/** The part of a transaction observer that sees each write. */
type WriteObserver = Pick<TransactionObserver, 'content' | 'contentDeleted' | 'category' | 'tag'>

/**
 * What `Store.transaction` hands its work: the content model read and written on the writer
 * connection inside the open transaction (reads see its own writes, and nothing is
 * remembered across them), every write recorded in the transaction's `ChangeSet` (revision
 * and change feed) and shown to its observer.
 */
export class TransactionWriter implements ContentWriter {
  readonly #conn: Connection
  readonly #run: StepRunner
  readonly #changes: ChangeSet
  readonly #observer: WriteObserver | null

  constructor(conn: Connection, run: StepRunner, changes: ChangeSet, observer: WriteObserver | null) {
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
    return this.#run(() => selectContent(this.#conn, tenantId, id, tagLookup(this.#conn, READ_AFRESH, tenantId)))
  }
  getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    return this.#run(() => selectContentBySlug(this.#conn, tenantId, slug, tagLookup(this.#conn, READ_AFRESH, tenantId)))
  }
  getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    return this.#run(() => selectContentsByIds(this.#conn, tenantId, ids, tagLookup(this.#conn, READ_AFRESH, tenantId)))
  }
  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    return this.#run(() => listContentsPage(this.#conn, READ_AFRESH, tenantId, query))
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
  getSynonyms(tenantId: string): Promise<string[]> {
    return this.#run(() => selectSynonyms(this.#conn, tenantId))
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
  replaceSynonyms(tenantId: string, lines: readonly string[]): Promise<void> {
    return this.#run(() => {
      replaceSynonymSet(this.#conn, tenantId, lines)
      this.#changed(tenantId, null, tenantId)
    })
  }

  appendEvents(events: readonly OutboxEvent[]): Promise<void> {
    return this.#run(() => insertEvents(this.#conn, events))
  }
  scheduledThrough(tenantId: string): Promise<string | null> {
    return this.#run(() => selectScheduledThrough(this.#conn, tenantId))
  }
  setScheduledThrough(tenantId: string, at: string): Promise<void> {
    return this.#run(() => upsertScheduledThrough(this.#conn, tenantId, at))
  }
  eventSubscriptions(tenantId: string): Promise<readonly string[] | null> {
    return this.#run(() => selectEventSubscriptions(this.#conn, tenantId))
  }

  #changed(tenantId: string, entity: ChangedEntity, id: string): void {
    this.#changes.add(tenantId, entity, id)
  }
}

import type { CategoryRecord } from '../../model/category.ts'
import type { ContentRecord } from '../../model/content.ts'
import type { InquiryCategoryRecord } from '../../model/inquiry.ts'
import type { TagRecord } from '../../model/tag.ts'
import type { ContentQuery } from '../../port/content-query.ts'
import type { OutboxEvent } from '../../port/event-outbox.ts'
import type { ContentWriter } from '../../port/store.ts'
import { modelListContents } from '../content-query-model.ts'
import type { Draft } from './memory-draft.ts'
import type { MemoryTables } from './memory-tables.ts'
import { appendEvents, bySortThenCode, compareText, contentsOf, ofTenant, refuse, requireTenant, rowKey, stored, toContentRecord } from './memory-tables.ts'

/**
 * A tenant's content model over memory tables: the store's reads (over the committed tables)
 * and a transaction's reads and writes (over its draft). Plain scans everywhere; lists use
 * core's own query model (`modelListContents`). Writes keep the constraints a database keeps
 * (unique codes, slugs and names per tenant; an item's category and tags exist), so that what
 * a real store would refuse is refused here too.
 */
export class MemoryContent implements ContentWriter {
  readonly #tables: () => MemoryTables
  readonly #draft: Draft | null

  /** Reads `tables()`; with a draft, reads and writes the draft's tables instead. */
  constructor(tables: () => MemoryTables, draft: Draft | null = null) {
    this.#tables = draft === null ? tables : () => draft.tables
    this.#draft = draft
  }

  async getCategory(tenantId: string, id: string): Promise<CategoryRecord | null> {
    return this.#read().categories.get(rowKey(tenantId, id)) ?? null
  }
  async getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null> {
    return ofTenant(this.#read().categories, tenantId).find((c) => c.code === code) ?? null
  }
  async listCategories(tenantId: string): Promise<CategoryRecord[]> {
    return ofTenant(this.#read().categories, tenantId).sort(bySortThenCode)
  }

  async getTag(tenantId: string, id: string): Promise<TagRecord | null> {
    return this.#read().tags.get(rowKey(tenantId, id)) ?? null
  }
  async getTagByName(tenantId: string, name: string): Promise<TagRecord | null> {
    return ofTenant(this.#read().tags, tenantId).find((t) => t.name === name) ?? null
  }
  async listTags(tenantId: string): Promise<TagRecord[]> {
    return ofTenant(this.#read().tags, tenantId).sort((a, b) => compareText(a.name, b.name))
  }

  async getContent(tenantId: string, id: string): Promise<ContentRecord | null> {
    const tables = this.#read()
    const stored = tables.contents.get(rowKey(tenantId, id))
    return stored === undefined ? null : toContentRecord(tables, stored)
  }
  async getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    const tables = this.#read()
    const stored = ofTenant(tables.contents, tenantId).find((item) => item.slug === slug)
    return stored === undefined ? null : toContentRecord(tables, stored)
  }
  async getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    const tables = this.#read()
    return ids.map((id) => {
      const stored = tables.contents.get(rowKey(tenantId, id))
      return stored === undefined ? null : toContentRecord(tables, stored)
    })
  }
  /** Whole records always (`view: 'summary'` allows, never requires, leaner ones). */
  async listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    const tables = this.#read()
    return modelListContents(contentsOf(tables, tenantId), ofTenant(tables.categories, tenantId), query)
  }

  async getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
    return this.#read().inquiryCategories.get(rowKey(tenantId, id)) ?? null
  }
  async getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
    return ofTenant(this.#read().inquiryCategories, tenantId).find((c) => c.code === code) ?? null
  }
  async listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]> {
    return ofTenant(this.#read().inquiryCategories, tenantId).sort(bySortThenCode)
  }

  async getSynonyms(tenantId: string): Promise<string[]> {
    return [...(this.#read().synonyms.get(tenantId) ?? [])]
  }

  async putCategory(record: CategoryRecord): Promise<void> {
    const { tables, draft } = this.#write()
    requireTenant(tables, record.tenant_id)
    if (ofTenant(tables.categories, record.tenant_id).some((c) => c.code === record.code && c.id !== record.id)) refuse(`category code ${record.code} is taken`)
    const category = stored(record)
    tables.categories.set(rowKey(record.tenant_id, record.id), category)
    draft.changed(record.tenant_id, 'category', record.id)
    draft.observer?.category(category)
  }

  async putTag(record: TagRecord): Promise<void> {
    const { tables, draft } = this.#write()
    requireTenant(tables, record.tenant_id)
    if (ofTenant(tables.tags, record.tenant_id).some((t) => t.name === record.name && t.id !== record.id)) refuse(`tag name ${record.name} is taken`)
    const tag = stored(record)
    tables.tags.set(rowKey(record.tenant_id, record.id), tag)
    draft.changed(record.tenant_id, 'tag', record.id)
    draft.observer?.tag(tag)
  }

  async putContent(record: ContentRecord): Promise<void> {
    const { tables, draft } = this.#write()
    const tenantId = record.tenant_id
    if (!tables.categories.has(rowKey(tenantId, record.category_id))) refuse(`item ${record.id}: no category ${record.category_id}`)
    if (ofTenant(tables.contents, tenantId).some((item) => item.slug === record.slug && item.id !== record.id)) refuse(`slug ${record.slug} is taken`)
    if (record.status !== 'draft' && record.status !== 'published') refuse(`item ${record.id}: no status ${String(record.status)}`)
    const tagIds = record.tags.map((tag) => tag.id)
    if (new Set(tagIds).size !== tagIds.length) refuse(`item ${record.id} carries a tag twice`)
    for (const id of tagIds) if (!tables.tags.has(rowKey(tenantId, id))) refuse(`item ${record.id}: no tag ${id}`)
    const item = stored(record)
    const { tags: _tags, ...rest } = item
    tables.contents.set(rowKey(tenantId, record.id), Object.freeze({ ...rest, tagIds: Object.freeze(tagIds) as string[] }))
    draft.changed(tenantId, 'content', record.id)
    draft.observer?.content(item)
  }

  async deleteContent(tenantId: string, id: string): Promise<boolean> {
    const { tables, draft } = this.#write()
    if (!tables.contents.delete(rowKey(tenantId, id))) return false
    draft.changed(tenantId, 'content', id)
    draft.observer?.contentDeleted(tenantId, id)
    return true
  }

  async putInquiryCategory(record: InquiryCategoryRecord): Promise<void> {
    const { tables, draft } = this.#write()
    requireTenant(tables, record.tenant_id)
    if (ofTenant(tables.inquiryCategories, record.tenant_id).some((c) => c.code === record.code && c.id !== record.id)) {
      refuse(`inquiry category code ${record.code} is taken`)
    }
    tables.inquiryCategories.set(rowKey(record.tenant_id, record.id), stored(record))
    draft.changed(record.tenant_id, null, record.id)
  }

  async replaceSynonyms(tenantId: string, lines: readonly string[]): Promise<void> {
    const { tables, draft } = this.#write()
    requireTenant(tables, tenantId)
    if (lines.length === 0) tables.synonyms.delete(tenantId)
    else tables.synonyms.set(tenantId, Object.freeze([...lines]))
    draft.changed(tenantId, null, tenantId)
  }

  async appendEvents(events: readonly OutboxEvent[]): Promise<void> {
    appendEvents(this.#write().tables, events)
  }
  async scheduledThrough(tenantId: string): Promise<string | null> {
    return this.#read().scheduledThrough.get(tenantId) ?? null
  }
  async eventSubscriptions(): Promise<readonly string[] | null> {
    // Hint: the memory store keeps no webhook endpoints; every event is written.
    return null
  }
  async setScheduledThrough(tenantId: string, at: string): Promise<void> {
    const { tables } = this.#write()
    requireTenant(tables, tenantId)
    tables.scheduledThrough.set(tenantId, at)
  }

  #read(): MemoryTables {
    if (this.#draft?.state === 'ended') throw new Error('memory store: the transaction has already ended')
    return this.#tables()
  }

  #write(): { tables: MemoryTables; draft: Draft } {
    const draft = this.#draft
    if (draft === null) throw new Error('memory store: writes go through a transaction')
    if (draft.state === 'ended') throw new Error('memory store: the transaction has already ended')
    if (draft.state === 'committing') throw new Error('memory store: the transaction is committing: no more writes')
    return { tables: draft.tables, draft }
  }
}

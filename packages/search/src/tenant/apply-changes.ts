import type { ContentReader, EntityChange } from '@frontdesk/core'
import type { TenantSearchIndex } from './tenant-index.ts'

/**
 * Brings a tenant's index up to date with changes read from the change feed, by reading the
 * changed entities' current state from the store (so applying a change twice, or one the index
 * already reflects, is harmless): a content item is indexed again or removed; a category's
 * state is recorded, and its items are indexed again when its fields changed (their indexed
 * custom text depends on them; switching a category on or off needs nothing, visibility is
 * decided per search); a tag's items are indexed again (their tag names changed).
 */
export async function applyChanges(
  index: TenantSearchIndex,
  store: Pick<ContentReader, 'getCategory' | 'getContents' | 'listContents'>,
  tenantId: string,
  changes: readonly EntityChange[],
  pageSize: number,
): Promise<void> {
  const contentIds = new Set<string>()
  const categoryIds = new Set<string>()
  const tagIds = new Set<string>()
  for (const change of changes) {
    if (change.tenantId !== tenantId) continue
    if (change.entity === 'content') contentIds.add(change.id)
    else if (change.entity === 'category') categoryIds.add(change.id)
    else tagIds.add(change.id)
  }
  // Categories first: an item's indexed custom text depends on its category's fields.
  for (const id of categoryIds) {
    const before = index.category(id)
    const after = await store.getCategory(tenantId, id)
    index.setCategory(id, after)
    if (JSON.stringify(before?.fields ?? null) !== JSON.stringify(after?.fields ?? null)) {
      for (const itemId of index.idsInCategory(id)) contentIds.add(itemId)
    }
  }
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
      for (const record of page) contentIds.add(record.id)
      const last = page[page.length - 1]
      if (page.length < pageSize || last === undefined) break
      after = { value: last.id, id: last.id }
    }
  }
  // Hint: read a page at a time: a start replaying thousands of changes spent most of its time on one read per item.
  const ids = [...contentIds]
  for (let from = 0; from < ids.length; from += pageSize) {
    const page = ids.slice(from, from + pageSize)
    const records = await store.getContents(tenantId, page)
    page.forEach((id, i) => {
      const record = records[i] ?? null
      if (record === null) index.remove(id)
      else index.upsert(record)
    })
  }
}

import type { Context } from '../app/context.ts'
import type { ImportRecordOut } from '../import/import-record.ts'
import type { CategoryRecord, FieldValue } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import { requireTenant } from './require-tenant.ts'

/** Contents are read in pages of this many items, so that an export streams. */
const PAGE_SIZE = 500

/**
 * Every record of a tenant's content model as import records, dependencies first:
 * categories (with their fields), tags, contents (every status; custom-field values by field
 * name, tags by name, `meta` whole), inquiry categories and the synonyms (one record, when the
 * tenant has any). Importing the output into an
 * empty tenant reproduces the same state (same ids); into the same tenant it changes nothing.
 * Contents are read page by page in id order.
 */
export async function* exportRecords(ctx: Context, tenantCode: string): AsyncIterable<ImportRecordOut> {
  const tenant = await requireTenant(ctx, tenantCode)
  const { store } = ctx
  const categories = await store.listCategories(tenant.id)
  const byId = new Map(categories.map((c) => [c.id, c]))
  for (const c of categories) yield categoryRecord(c)
  for (const t of await store.listTags(tenant.id)) yield { kind: 'tag', id: t.id, name: t.name }
  let after: { value: string; id: string } | undefined
  for (;;) {
    const page = await store.listContents(tenant.id, {
      visibility: { kind: 'all' },
      sort: { key: 'id', direction: 'asc' },
      limit: PAGE_SIZE,
      ...(after === undefined ? {} : { after }),
    })
    for (const item of page) yield contentRecord(item, byId.get(item.category_id))
    const last = page.at(-1)
    if (page.length < PAGE_SIZE || last === undefined) break
    after = { value: last.id, id: last.id }
  }
  for (const c of await store.listInquiryCategories(tenant.id)) {
    yield { kind: 'inquiry_category', id: c.id, code: c.code, name: c.name, description: c.description, sort: c.sort, active: c.active, message: c.message }
  }
  const synonyms = await store.getSynonyms(tenant.id)
  if (synonyms.length > 0) yield { kind: 'synonyms', groups: synonyms }
}

function categoryRecord(c: CategoryRecord): ImportRecordOut {
  return {
    kind: 'category',
    id: c.id,
    code: c.code,
    name: c.name,
    description: c.description,
    sort: c.sort,
    active: c.active,
    fields: c.fields.map((f) => ({ id: f.id, name: f.name, type: f.type, ...(f.options === undefined ? {} : { options: f.options }), required: f.required })),
  }
}

function contentRecord(item: ContentRecord, category: CategoryRecord | undefined): ImportRecordOut {
  // Hint: values of fields the category no longer defines are not exported (import would refuse them).
  const content: Record<string, FieldValue> = {}
  for (const field of category?.fields ?? []) {
    const value = item.fields[field.id]
    if (value !== undefined) content[field.name] = value
  }
  return {
    kind: 'content',
    id: item.id,
    slug: item.slug,
    title: item.title,
    category_id: item.category_id,
    status: item.status,
    ...(item.published_at === null ? {} : { published_at: item.published_at }),
    author_name: item.author_name,
    tags: item.tags.map((t) => t.name),
    summary: item.summary,
    body: item.body,
    content,
    meta: item.meta,
  }
}

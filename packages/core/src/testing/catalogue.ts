import type { ContentRecord } from '../model/content.ts'
import type { ContentQuery } from '../port/content-query.ts'
import type { Store } from '../port/store.ts'
import { aCategory, aContent, aTag, aTenant, at, FIELDS } from './fixtures.ts'

/*
 * A small catalogue with one item for every visibility case, used by the list cases:
 *
 *   cnt_01 news  published -60 min  tags alpha, beta  fields num 10, text red, bool true, date, select s
 *   cnt_02 news  published -30 min  tags alpha        fields num 5, text blue, bool false
 *   cnt_03 news  published +60 min  (scheduled)       tags alpha, beta
 *   cnt_04 news  draft, never published
 *   cnt_05 old   published -10 min  (inactive category)  tags beta
 *   cnt_06 prev  draft, never published  (inactive category, the preview one)
 *   cnt_07 prev  published -5 min
 *   cnt_08 news  published -30 min  (ties with cnt_02)  tags beta, gamma  fields num 10, text red
 *   cnt_09 news  draft with a past published_at
 */

/** The moment the catalogue is listed at. */
export const NOW = at(0)

/** Ids of the catalogue's categories and tags. */
export const CAT = { news: 'cat_news', old: 'cat_old', prev: 'cat_prev' } as const

/** Writes the catalogue for `tenantId` (creating the tenant) and returns its items by id. */
export async function seedCatalogue(store: Store, tenantId: string): Promise<Map<string, ContentRecord>> {
  await store.createTenant(aTenant(tenantId))
  const t = (id: string, name: string) => ({ id, name })
  const alpha = t('tag_a', 'alpha')
  const beta = t('tag_b', 'beta')
  const gamma = t('tag_c', 'gamma')
  const items = [
    aContent(tenantId, 'cnt_01', CAT.news, {
      published_at: at(-60), tags: [alpha, beta],
      fields: { fld_num: 10, fld_text: 'red', fld_bool: true, fld_date: '2025-01-01', fld_sel: 's' },
    }),
    aContent(tenantId, 'cnt_02', CAT.news, { published_at: at(-30), tags: [alpha], fields: { fld_num: 5, fld_text: 'blue', fld_bool: false } }),
    aContent(tenantId, 'cnt_03', CAT.news, { published_at: at(60), tags: [alpha, beta] }),
    aContent(tenantId, 'cnt_04', CAT.news, { status: 'draft', published_at: null }),
    aContent(tenantId, 'cnt_05', CAT.old, { published_at: at(-10), tags: [beta] }),
    aContent(tenantId, 'cnt_06', CAT.prev, { status: 'draft', published_at: null }),
    aContent(tenantId, 'cnt_07', CAT.prev, { published_at: at(-5) }),
    aContent(tenantId, 'cnt_08', CAT.news, { published_at: at(-30), tags: [beta, gamma], fields: { fld_num: 10, fld_text: 'red' } }),
    aContent(tenantId, 'cnt_09', CAT.news, { status: 'draft', published_at: at(-100) }),
  ]
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(tenantId, CAT.news, { code: 'news', fields: Object.values(FIELDS) }))
    await tx.putCategory(aCategory(tenantId, CAT.old, { code: 'old', active: false }))
    await tx.putCategory(aCategory(tenantId, CAT.prev, { code: 'prev', active: false }))
    for (const tag of [alpha, beta, gamma]) await tx.putTag(aTag(tenantId, tag.id, tag.name))
    for (const item of items) await tx.putContent(item)
  })
  return new Map(items.map((item) => [item.id, item]))
}

/** A public query at `NOW`, newest first, with room for every item. */
export function publicQuery(overrides: Partial<ContentQuery> = {}): ContentQuery {
  return { visibility: { kind: 'public', now: NOW }, sort: { key: 'published_at', direction: 'desc' }, limit: 100, ...overrides }
}

/** The ids of a page, in order. */
export async function ids(page: Promise<ContentRecord[]>): Promise<string[]> {
  return (await page).map((item) => item.id)
}

/** The same ids, sorted (for cases where only membership matters). */
export async function idSet(page: Promise<ContentRecord[]>): Promise<string[]> {
  return (await ids(page)).sort()
}

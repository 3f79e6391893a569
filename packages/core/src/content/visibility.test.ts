import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import { isContentVisible, isPubliclyVisible, listVisibility } from './visibility.ts'

const NOW = Date.parse('2025-06-20T12:00:00.000Z')
const category: CategoryRecord = {
  tenant_id: 'ten_1', id: 'cat_1', code: 'news', name: 'News', description: '', sort: 0, active: true, fields: [],
  created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
}
const item: ContentRecord = {
  tenant_id: 'ten_1', id: 'cnt_1', slug: 'a', title: 'A', category_id: 'cat_1', status: 'published',
  published_at: '2025-06-20T12:00:00.000Z', author_name: '', tags: [], summary: '', body: '', fields: {},
  meta: { og_title: '', og_description: '' }, version: 1, created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
}

test('a published item whose time has come, in an active category, is public', () => {
  assert.ok(isPubliclyVisible(item, category, NOW))
})

test('drafts, scheduled items and items of inactive or missing categories are not public', () => {
  assert.not.ok(isPubliclyVisible({ ...item, status: 'draft' }, category, NOW))
  assert.not.ok(isPubliclyVisible({ ...item, published_at: '2025-06-20T12:00:00.001Z' }, category, NOW))
  assert.not.ok(isPubliclyVisible({ ...item, published_at: null }, category, NOW))
  assert.not.ok(isPubliclyVisible(item, { ...category, active: false }, NOW))
  assert.not.ok(isPubliclyVisible(item, null, NOW))
  assert.not.ok(isPubliclyVisible(item, { ...category, id: 'cat_2' }, NOW))
})

test('a scheduled item becomes public by itself when its time comes', () => {
  const scheduled = { ...item, published_at: '2025-06-20T12:01:00.000Z' }
  assert.not.ok(isPubliclyVisible(scheduled, category, NOW))
  assert.ok(isPubliclyVisible(scheduled, category, NOW + 60_000))
})

test('a content-bound preview opens its item only, a category-bound one its category only', () => {
  const draft = { ...item, status: 'draft' as const, published_at: null }
  assert.ok(isContentVisible(draft, category, NOW, { kind: 'content', id: 'cnt_1' }))
  assert.not.ok(isContentVisible(draft, category, NOW, { kind: 'content', id: 'cnt_2' }))
  assert.ok(isContentVisible(draft, { ...category, active: false }, NOW, { kind: 'category', id: 'cat_1' }))
  assert.not.ok(isContentVisible(draft, category, NOW, { kind: 'category', id: 'cat_2' }))
  assert.not.ok(isContentVisible(draft, category, NOW, null))
})

test('a list is widened only by a category token and only when filtered to its category', () => {
  const iso = '2025-06-20T12:00:00.000Z'
  assert.equal(listVisibility(NOW, null, 'cat_1'), { kind: 'public', now: iso })
  assert.equal(listVisibility(NOW, { kind: 'category', id: 'cat_1' }, 'cat_1'), { kind: 'public', now: iso, previewCategoryId: 'cat_1' })
  assert.equal(listVisibility(NOW, { kind: 'category', id: 'cat_1' }, null), { kind: 'public', now: iso })
  assert.equal(listVisibility(NOW, { kind: 'category', id: 'cat_1' }, 'cat_2'), { kind: 'public', now: iso })
  assert.equal(listVisibility(NOW, { kind: 'content', id: 'cnt_1' }, 'cat_1'), { kind: 'public', now: iso })
})

test.run()

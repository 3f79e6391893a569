import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { AdminFixture } from '../../test/util/admin-fixture.ts'
import { lines, openAdminFixture, rejection, START } from '../../test/util/admin-fixture.ts'
import { deleteContentItem } from './delete-content-item.ts'
import { importRecords } from './import-records.ts'
import { setContentStatus } from './set-content-status.ts'

const test = suite<{ f: AdminFixture }>('content status', {} as { f: AdminFixture })
test.before.each(async (context) => {
  const f = await openAdminFixture()
  context.f = f
  await f.tenant('acme')
  await importRecords(f.ctx, {
    tenantCode: 'acme',
    records: lines([
      { kind: 'category', code: 'news', name: 'News' },
      { kind: 'content', id: 'draft-1', slug: 'a-draft', title: 'A draft', category_code: 'news' },
      { kind: 'content', id: 'later', slug: 'scheduled', title: 'Later', category_code: 'news', status: 'published', published_at: '2030-01-01T00:00:00Z' },
    ]),
  })
})
test.after.each(async (context) => {
  await context.f.close()
})

const iso = (ms: number) => new Date(ms).toISOString()

test('publishing a draft sets published_at to now and bumps the version', async ({ f }) => {
  f.clock.advance(60_000)
  const item = await setContentStatus(f.ctx, 'acme', 'draft-1', 'published')
  assert.is(item.status, 'published')
  assert.is(item.published_at, iso(START + 60_000))
  assert.is(item.version, 2)
  assert.is(item.updated_at, iso(START + 60_000))
  assert.equal(await f.store.getContent(item.tenant_id, 'draft-1'), item)
})

test('publishing what is published changes nothing', async ({ f }) => {
  const item = await setContentStatus(f.ctx, 'acme', 'later', 'published')
  assert.is(item.version, 1)
  assert.is(item.published_at, '2030-01-01T00:00:00.000Z')
})

test('unpublishing keeps published_at so that publishing again restores it', async ({ f }) => {
  const draft = await setContentStatus(f.ctx, 'acme', 'scheduled', 'draft')
  assert.is(draft.status, 'draft')
  assert.is(draft.published_at, '2030-01-01T00:00:00.000Z')
  assert.is(draft.version, 2)
  const again = await setContentStatus(f.ctx, 'acme', 'later', 'published')
  assert.is(again.published_at, '2030-01-01T00:00:00.000Z')
  assert.is(again.version, 3)
})

test('items are found by id, else by slug', async ({ f }) => {
  assert.is((await setContentStatus(f.ctx, 'acme', 'a-draft', 'published')).id, 'draft-1')
})

test('deleting removes the item and returns it', async ({ f }) => {
  const deleted = await deleteContentItem(f.ctx, 'acme', 'a-draft')
  assert.is(deleted.id, 'draft-1')
  assert.is(await f.store.getContent(deleted.tenant_id, 'draft-1'), null)
  assert.equal((await f.contents()).map((c) => c.id), ['later'])
})

test('unknown items and tenants are named', async ({ f }) => {
  const error = await rejection(setContentStatus(f.ctx, 'acme', 'nope', 'published'))
  assert.instance(error, UsageError)
  assert.is(error.message, 'Unknown content: nope')
  assert.is((await rejection(deleteContentItem(f.ctx, 'acme', 'nope'))).message, 'Unknown content: nope')
  assert.is((await rejection(deleteContentItem(f.ctx, 'other', 'draft-1'))).message, 'Unknown tenant: other')
})

test("another tenant's item is not reachable", async ({ f }) => {
  await f.tenant('other')
  assert.is((await rejection(setContentStatus(f.ctx, 'other', 'draft-1', 'published'))).message, 'Unknown content: draft-1')
})

test.run()

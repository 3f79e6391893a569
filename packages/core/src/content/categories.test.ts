import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoCase } from '../testing/memo-case.ts'
import { NotFoundError } from '../errors/frontdesk-error.ts'
import type { FieldDefinition } from '../model/category.ts'
import type { ContentFixture } from '../../test/util/content-fixture.ts'
import { openContentFixture } from '../../test/util/content-fixture.ts'
import { strongEtag } from '../cache/strong-etag.ts'

const test = suite<{ f: ContentFixture }>('categories', {} as { f: ContentFixture })
test.before.each(async (context) => {
  context.f = await openContentFixture()
})
test.after.each(async (context) => {
  await context.f.close()
})

const color: FieldDefinition = { id: 'fld_color', name: 'color', type: 'select', options: ['red', 'blue'], required: true }
const price: FieldDefinition = { id: 'fld_price', name: 'price', type: 'number', required: false }

test('the list holds active categories ordered by sort, then code', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const b = await f.category(tenant, { code: 'b', sort: 1, name: 'B', description: 'bee' })
  const a = await f.category(tenant, { code: 'a', sort: 1 })
  const z = await f.category(tenant, { code: 'z', sort: 0 })
  await f.category(tenant, { code: 'off', sort: 0, active: false })
  const other = await f.tenant('other')
  await f.category(other.tenant, { code: 'theirs' })
  const reply = await f.frontdesk.listCategories(principal)
  assert.equal(reply.cache, { kind: 'private', maxAge: 60, etag: strongEtag(tenant.id, JSON.stringify(reply.body)) })
  assert.equal(reply.body.items.map((c) => c.id), [z.id, a.id, b.id])
  assert.equal(reply.body.items[2], { id: b.id, code: 'b', name: 'B', description: 'bee', sort: 1 })
})

memoCase(test, 'a cached category list and detail are the same bytes until a category changes', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const shop = await f.category(tenant, { code: 'shop', fields: [color] })
  const list = await f.frontdesk.listCategories(principal)
  const detail = await f.frontdesk.getCategory(principal, shop.id)
  assert.is((await f.frontdesk.listCategories(principal)).bytes, list.bytes)
  assert.is((await f.frontdesk.getCategory(principal, shop.id)).bytes, detail.bytes)
  await f.category(tenant, { code: 'news' })
  assert.is.not((await f.frontdesk.listCategories(principal)).bytes, list.bytes)
  assert.is((await f.frontdesk.listCategories(principal)).body.items.length, 2)
})

test('the detail holds the fields, options only for select', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const shop = await f.category(tenant, { code: 'shop', fields: [color, price] })
  const reply = await f.frontdesk.getCategory(principal, shop.id)
  assert.equal(reply.body, {
    id: shop.id, code: 'shop', name: 'shop', description: '', sort: 0,
    fields: [
      { id: 'fld_color', name: 'color', type: 'select', options: ['red', 'blue'], required: true },
      { id: 'fld_price', name: 'price', type: 'number', required: false },
    ],
  })
})

test('inactive, unknown and other tenants\' categories are 404', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const off = await f.category(tenant, { code: 'off', active: false })
  const other = await f.tenant('other')
  const theirs = await f.category(other.tenant, { code: 'theirs' })
  for (const id of [off.id, theirs.id, 'cat_nope', 'no such id', '']) {
    try {
      await f.frontdesk.getCategory(principal, id)
      assert.unreachable(id)
    } catch (error) {
      assert.instance(error, NotFoundError, id)
    }
  }
})

test.run()

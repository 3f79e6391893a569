import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isPubliclyVisible } from '../content/visibility.ts'
import { aCategory, aContent } from '../testing/fixtures.ts'
import { fuzzOptions } from '../testing/fuzz-options.ts'
import { FoundItems, isFoundItemVisible, ITEM_OVERHEAD, textBytes } from './found-items.ts'
import { fragmentsIn, highlightFragments, highlightIn } from './highlight.ts'
import { parseQueryTerms } from './query-terms.ts'
import { stripHtml } from './strip-html.ts'

const terms = parseQueryTerms('office')
const { runs, seed } = fuzzOptions(300)

test('an item is found again as read, at the revision it was read at only', () => {
  const found = new FoundItems(undefined, 'always')
  const item = aContent('t1', 'c1', 'cat', { title: 'Office', summary: 'An office move.', body: '<p>The <b>office</b> moves.</p>' })
  const put = found.put(item, 7)
  assert.is(found.get('t1', 'c1', 7), put)
  assert.is(put.record, item)
  assert.is(found.get('t1', 'c1', 8), undefined)
  assert.is(found.get('t1', 'c2', 7), undefined)
  assert.is(highlightIn(put.source.title, terms), '<em>Office</em>')
  assert.equal(fragmentsIn(put.source.fragments, terms), highlightFragments([item.summary, stripHtml(item.body)], terms))
})

test('read again after a change, an item keeps its prepared texts only while they are the same strings', () => {
  const found = new FoundItems(undefined, 'always')
  const item = aContent('t1', 'c1', 'cat', { title: 'Office', summary: 'Old summary', body: '<p>old office</p>' })
  const first = found.put(item, 1)
  // The same texts read again (equal strings, not the same ones): prepared texts kept.
  const reread = found.put({ ...item, tags: [{ id: 'tag_1', name: 'renamed' }], title: `${item.title} `.trimEnd(), body: `${item.body} `.trimEnd() }, 2)
  assert.is(reread.source, first.source)
  assert.equal(reread.record.tags, [{ id: 'tag_1', name: 'renamed' }])
  assert.is(found.get('t1', 'c1', 1), undefined)
  for (const [revision, change] of [[3, { title: 'New office' }], [4, { summary: 'New office summary' }], [5, { body: '<p>new office</p>' }]] as const) {
    const changed = { ...item, ...change }
    const source = found.put(changed, revision).source
    assert.is.not(source, first.source)
    assert.equal(fragmentsIn(source.fragments, terms), highlightFragments([changed.summary, stripHtml(changed.body)], terms))
    assert.is(highlightIn(source.title, terms), highlightIn(found.put({ ...changed, title: changed.title }, revision).source.title, terms))
  }
  assert.is(found.size, 1)
  found.delete('t1', 'c1')
  assert.is(found.size, 0)
  assert.is(found.chars, 0)
})

test('the same id in two tenants is two items', () => {
  const found = new FoundItems(undefined, 'always')
  found.put(aContent('t1', 'c1', 'cat', { title: 'Office of A' }), 1)
  found.put(aContent('t2', 'c1', 'cat', { title: 'Office of B' }), 1)
  assert.is(found.get('t1', 'c1', 1)?.record.title, 'Office of A')
  assert.is(found.get('t2', 'c1', 1)?.record.title, 'Office of B')
  assert.is(found.size, 2)
})

test('a text counts its characters once, twice when any is beyond U+00FF (V8 stores it two bytes a character)', () => {
  assert.is(textBytes(''), 0)
  assert.is(textBytes('abc'), 3)
  assert.is(textBytes('café ÿ'), 6)
  assert.is(textBytes('日本語'), 6)
  assert.is(textBytes('a\u2014b'), 6)
  const japanese = aContent('t1', 'ja', 'cat', { title: 'T', summary: 'S', body: 'あ'.repeat(200) })
  const english = aContent('t1', 'en', 'cat', { title: 'T', summary: 'S', body: 'a'.repeat(200) })
  const found = new FoundItems(10_000_000, 'always')
  found.put(english, 1)
  assert.is(found.chars, 2 * 2 + 4 * 200 + ITEM_OVERHEAD)
  found.put(japanese, 1)
  assert.is(found.chars, 2 * (2 * 2 + 4 * 200 + ITEM_OVERHEAD) + 4 * 200)
})

test('beyond its size the least recently used items are dropped', () => {
  const body = `<p>${'word '.repeat(100)}</p>`
  const item = (id: string) => aContent('t1', id, 'cat', { title: 'T', summary: 'S', body })
  const cost = 2 * 2 + 4 * body.length + ITEM_OVERHEAD
  const found = new FoundItems(3 * cost, 'always')
  const first = found.put(item('c1'), 1)
  found.put(item('c2'), 1)
  found.put(item('c3'), 1)
  assert.is(found.get('t1', 'c1', 1), first, 'c1 used again: now the most recent')
  found.put(item('c4'), 1)
  assert.is(found.size, 3)
  assert.is(found.chars, 3 * cost)
  assert.is(found.get('t1', 'c2', 1), undefined, 'c2 was dropped')
  assert.is(found.get('t1', 'c1', 1), first)
  // Nothing is kept when nothing fits, and it still answers.
  const none = new FoundItems(0)
  assert.is(none.put(item('c1'), 1).record.title, 'T')
  assert.is(none.size, 0)
})

test('it keeps what a plain least-recently-used list of the same size keeps', () => {
  const op = fc.record({ kind: fc.constantFrom('put', 'put', 'get', 'delete'), tenant: fc.constantFrom('t1', 't2'), id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), size: fc.integer({ min: 0, max: 40 }), revision: fc.integer({ min: 1, max: 2 }) })
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), fc.integer({ min: 0, max: 3000 }), (ops, max) => {
      const found = new FoundItems(max, 'always')
      // The model: a Map in order of use (a hit is deleted and set again), oldest dropped first.
      const model = new Map<string, { revision: number; cost: number; title: string }>()
      for (const { kind, tenant, id, size, revision } of ops) {
        const key = `${tenant}/${id}`
        if (kind === 'put') {
          const item = aContent(tenant, id, 'cat', { title: `${key}@${revision}`, summary: '', body: 'x'.repeat(size * 10) })
          const cost = 2 * item.title.length + 4 * item.body.length + ITEM_OVERHEAD
          model.delete(key)
          if (cost <= max) model.set(key, { revision, cost, title: item.title })
          let chars = [...model.values()].reduce((sum, entry) => sum + entry.cost, 0)
          for (const [oldest, entry] of model) {
            if (chars <= max) break
            model.delete(oldest)
            chars -= entry.cost
          }
          assert.is(found.put(item, revision).record, item)
        } else if (kind === 'get') {
          const entry = model.get(key)
          const hit = entry !== undefined && entry.revision === revision
          if (hit) {
            model.delete(key)
            model.set(key, entry)
          }
          assert.is(found.get(tenant, id, revision)?.record.title, hit ? entry.title : undefined)
        } else {
          model.delete(key)
          found.delete(tenant, id)
        }
        assert.is(found.size, model.size)
        assert.is(found.chars, [...model.values()].reduce((sum, entry) => sum + entry.cost, 0))
      }
    }),
    { numRuns: 500 },
  )
})

test('by default an item is kept from the second time it is put: found once, it costs no room', () => {
  const found = new FoundItems()
  const item = (tenant: string, id: string) => aContent(tenant, id, 'cat', { title: `Office ${id}`, body: '<p>office</p>' })
  const first = found.put(item('t1', 'c1'), 1)
  assert.is(first.record.title, 'Office c1', 'a first sight still answers')
  assert.is(found.get('t1', 'c1', 1), undefined)
  assert.is(found.size, 0)
  assert.is(found.put(item('t2', 'c1'), 1) !== undefined && found.get('t2', 'c1', 1), undefined, 'the same id in another tenant is another item')
  const second = found.put(item('t1', 'c1'), 1)
  assert.is(found.get('t1', 'c1', 1), second, 'seen before: kept')
  // Read again after a change (a new revision), an item kept before is kept at once.
  const reread = found.put(item('t1', 'c1'), 2)
  assert.is(found.get('t1', 'c1', 2), reread)
  assert.is(found.size, 1)
})

test('once full, an item is kept only when found more often lately than the one it would push out', () => {
  const body = `<p>${'word '.repeat(100)}</p>`
  const item = (id: string) => aContent('t1', id, 'cat', { title: 'T', summary: 'S', body })
  const cost = 2 * 2 + 4 * body.length + ITEM_OVERHEAD
  const found = new FoundItems(3 * cost)
  for (const id of ['a', 'b', 'c']) {
    found.put(item(id), 1)
    found.put(item(id), 1)
  }
  assert.is(found.size, 3, 'room for three: each kept from its second sight')
  found.put(item('d'), 1)
  found.put(item('d'), 1)
  assert.is(found.get('t1', 'd', 1), undefined, 'd found as often as a, the least recently used: a stays')
  assert.ok(found.get('t1', 'a', 1) !== undefined && found.get('t1', 'a', 1) !== undefined)
  // a was used twice more and is among the newest now; b is the least recently used, found once past the doorkeeper.
  found.put(item('d'), 1)
  assert.ok(found.get('t1', 'd', 1) !== undefined, 'd found twice past the doorkeeper, more often than b: kept')
  assert.is(found.get('t1', 'b', 1), undefined, 'b pushed out')
  assert.is(found.size, 3)
  assert.is(found.chars, 3 * cost)
})

test('an item found again from the cache counts as found: its hits keep it against newcomers', () => {
  const body = `<p>${'word '.repeat(100)}</p>`
  const item = (id: string) => aContent('t1', id, 'cat', { title: 'T', summary: 'S', body })
  const cost = 2 * 2 + 4 * body.length + ITEM_OVERHEAD
  const found = new FoundItems(2 * cost)
  for (const id of ['a', 'b', 'a', 'b']) found.put(item(id), 1)
  // b is among the newer half, so its hit leaves it in place; a's moves it: b is the least recently used, found twice.
  assert.ok(found.get('t1', 'b', 1) !== undefined)
  assert.ok(found.get('t1', 'a', 1) !== undefined)
  for (let i = 0; i < 3; i++) found.put(item('d'), 1)
  assert.is(found.get('t1', 'd', 1), undefined, 'd found twice past the doorkeeper, as often as b with its hit')
  found.put(item('d'), 1)
  assert.ok(found.get('t1', 'd', 1) !== undefined)
  assert.is(found.get('t1', 'b', 1), undefined)
})

test(`whatever it keeps, an item is found again only as last read, at that revision, within its size (${runs} runs, seed ${seed})`, () => {
  const op = fc.record({ kind: fc.constantFrom('put', 'put', 'get', 'get', 'delete'), tenant: fc.constantFrom('t1', 't2'), id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), size: fc.integer({ min: 0, max: 40 }), revision: fc.integer({ min: 1, max: 2 }) })
  fc.assert(
    fc.property(fc.array(op, { maxLength: 120 }), fc.integer({ min: 0, max: 4000 }), (ops, max) => {
      const found = new FoundItems(max)
      const last = new Map<string, { title: string; revision: number }>()
      let n = 0
      for (const { kind, tenant, id, size, revision } of ops) {
        const key = `${tenant}/${id}`
        if (kind === 'put') {
          const item = aContent(tenant, id, 'cat', { title: `${key}#${n++}`, summary: '', body: 'x'.repeat(size * 10) })
          assert.is(found.put(item, revision).record, item)
          last.set(key, { title: item.title, revision })
        } else if (kind === 'get') {
          const hit = found.get(tenant, id, revision)
          const latest = last.get(key)
          if (hit !== undefined) assert.ok(latest !== undefined && latest.revision === revision && hit.record.title === latest.title, `${key}@${revision}: ${hit.record.title}`)
        } else {
          found.delete(tenant, id)
          last.delete(key)
          assert.is(found.get(tenant, id, 1) ?? found.get(tenant, id, 2), undefined)
        }
        assert.ok(found.chars <= max, `${found.chars} > ${max}`)
      }
    }),
    { numRuns: runs, seed },
  )
})

test('a found item is visible exactly when isPubliclyVisible says so, its date parsed once', () => {
  const found = new FoundItems()
  const dates = [null, '2025-01-01T00:00:00.000Z', '2025-06-01T12:00:00Z', 'not a date', '2030-01-01']
  fc.assert(
    fc.property(fc.constantFrom(...dates), fc.constantFrom('published', 'draft'), fc.boolean(), fc.boolean(), fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }), (published_at, status, active, same, now) => {
      const record = aContent('t1', 'c1', 'cat', { published_at, status: status as 'published' | 'draft' })
      const category = aCategory('t1', same ? 'cat' : 'other', { active })
      assert.is(isFoundItemVisible(found.put(record, 1), category, now), isPubliclyVisible(record, category, now))
    }),
  )
})

test.run()

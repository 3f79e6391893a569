import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { OutboxEvent } from '../port/event-outbox.ts'
import { contentEventData } from './content-events.ts'
import { decodeEventData, encodeEventData } from './event-data-encoding.ts'

const test = suite('event data as the outbox stores it')

const RUNS = { numRuns: 300 }
const text = fc.string({ unit: 'binary', maxLength: 30 })
const iso = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString())

const items = fc.record({
  item: fc.record({
    id: text, title: text, slug: text, category_id: text, published_at: fc.option(iso), author_name: text, summary: text,
    tags: fc.array(fc.record({ id: text, name: text }), { maxLength: 4 }), version: fc.integer({ min: 1, max: 2 ** 40 }), updated_at: iso,
  }),
  category: fc.record({ code: text, name: text }),
})

/** What a receiver gets: the body is `JSON.stringify` of the data read back. */
const delivered = (data: OutboxEvent['data']) => JSON.stringify(decodeEventData(encodeEventData(data)))

test('a content event reads back as the same JSON, byte for byte, from fewer bytes; so does one stored before (a JSON object)', () => {
  fc.assert(
    fc.property(items, ({ item, category }) => {
      const data = contentEventData(item as unknown as ContentRecord, category as unknown as CategoryRecord)
      const stored = encodeEventData(data)
      assert.is(delivered(data), JSON.stringify(data))
      assert.ok(stored.startsWith('['), stored)
      assert.ok(stored.length < JSON.stringify(data).length)
      assert.is(JSON.stringify(decodeEventData(JSON.stringify(data))), JSON.stringify(data))
    }),
    RUNS,
  )
})

test('any other data (an inquiry, keys in another order, a key more or less, a value left out) reads back as the same JSON', () => {
  const keys = ['id', 'title', 'slug', 'category_id', 'category_code', 'category_name', 'published_at', 'author_name', 'tags', 'summary', 'version', 'updated_at']
  const contentLike = fc
    .tuple(fc.oneof(fc.constant(keys), fc.shuffledSubarray(keys, { minLength: keys.length - 1 })), fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: keys.length, maxLength: keys.length }), fc.option(text), fc.nat(keys.length))
    .map(([order, values, extra, undefinedAt]) => {
      const data: Record<string, unknown> = {}
      order.forEach((key, i) => {
        data[key] = i === undefinedAt ? undefined : values[i]
      })
      if (extra !== null) data[extra] = 1
      return data as OutboxEvent['data']
    })
  fc.assert(
    fc.property(fc.oneof(contentLike, fc.dictionary(text, fc.jsonValue({ maxDepth: 3 })).map((data) => data as OutboxEvent['data'])), (data) => {
      assert.is(delivered(data), JSON.stringify(data))
    }),
    RUNS,
  )
})

test('data in a layout this version does not know is refused, not delivered wrong', () => {
  assert.throws(() => decodeEventData('[2, "a"]'), /unknown layout/)
  assert.throws(() => decodeEventData('[1, "a"]'), /unknown layout/)
})

test.run()

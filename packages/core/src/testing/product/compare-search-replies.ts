import * as assert from 'uvu/assert'
import type { Reply } from '../../app/reply.ts'
import type { JsonValue } from '../../model/json.ts'
import type { SearchResponseBody, SearchResultItem } from '../../search/search-contents.ts'
import type { Outcome } from './reply-cache-model.ts'
import { outcome, shown } from './reply-cache-model.ts'

/** Asks one search body; see `compareSearches`. */
export type AskSearch = (body: Record<string, JsonValue>) => Promise<Reply<SearchResponseBody>>

const decoder = new TextDecoder()

/**
 * Asks the product and the reference the same search and fails unless the product's reply is
 * one the reference allows, compared in full:
 * - the same refusal, or a reply with the same status, cache policy and pagination (exact total);
 * - its bytes (core makes them without `JSON.stringify`) are the body's JSON;
 * - sorted by date or a field: the same items in the same order, every field of each
 *   (highlights, custom fields) but the score, which is the engine's own;
 * - by relevance (scores a scan cannot reproduce): the full ranking (asked with `from` 0 and
 *   size 100) holds the same items as the reference's, each equal to the reference's but for
 *   its score, scores never increase, and the page asked for is that ranking's slice, scores too.
 */
export async function compareSearches(product: AskSearch, reference: AskSearch, body: Record<string, JsonValue>, where: string): Promise<void> {
  const got = await outcome(() => product(body))
  const expected = await outcome(() => reference(body))
  const label = `${where}: search ${JSON.stringify(body)}`
  if (!got.ok || !expected.ok) {
    assert.is(shown(got), shown(expected), label)
    return
  }
  const reply = got.value as Reply<SearchResponseBody>
  const wanted = expected.value as Reply<SearchResponseBody>
  checkBytes(reply, label)
  assert.equal([reply.status, reply.cache, reply.body.pagination], [wanted.status, wanted.cache, wanted.body.pagination], `status, cache and pagination of ${label}`)
  const relevance = body['sort'] === undefined || body['sort'] === 'relevance'
  if (!relevance) {
    assert.equal(reply.body.items.map(withoutScore), wanted.body.items.map(withoutScore), `items of ${label}`)
    return
  }
  const whole = { ...body, from: 0, size: 100 }
  const fullReply = await product(whole)
  const full = fullReply.body
  const all = (await reference(whole)).body
  checkBytes(fullReply, label)
  assert.is(full.pagination.total, reply.body.pagination.total, `total of the full ranking of ${label}`)
  const byId = new Map(all.items.map((item) => [item.id, withoutScore(item)]))
  assert.equal(full.items.map((item) => item.id).sort(), [...byId.keys()].sort(), `items of the full ranking of ${label}`)
  for (const item of full.items) assert.equal(withoutScore(item), byId.get(item.id), `item ${item.id} of ${label}`)
  full.items.forEach((item, i) => {
    const before = full.items[i - 1]
    if (before !== undefined) assert.ok(before.score >= item.score, `relevance order of ${label}: ${before.id} (${before.score}) before ${item.id} (${item.score})`)
  })
  const from = typeof body['from'] === 'number' ? body['from'] : 0
  const size = typeof body['size'] === 'number' ? body['size'] : 20
  assert.equal(reply.body.items, full.items.slice(from, from + size), `page of ${label} (the slice of the full ranking)`)
}

/** The reply's own bytes, when core made them, are `JSON.stringify` of its body. */
function checkBytes(reply: Reply<SearchResponseBody>, label: string): void {
  if (reply.bytes !== undefined) assert.is(decoder.decode(reply.bytes), JSON.stringify(reply.body), `bytes of ${label}`)
}

function withoutScore(item: SearchResultItem): Omit<SearchResultItem, 'score'> {
  const { score: _score, ...rest } = item
  return rest
}

/** Fails unless both answered alike (the same JSON, or the same refusal). */
export function assertSame(got: Outcome, expected: Outcome, label: string): void {
  assert.is(shown(got), shown(expected), label)
}

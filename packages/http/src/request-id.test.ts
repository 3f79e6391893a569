import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { generateApiKey } from '@frontdesk/core'
import { looksLikeSecret, requestIdOf } from './request-id.ts'

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-'
const idChar = fc.constantFrom(...ID_CHARS)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The rule, written the slow and obvious way: every run of letters and digits, looked at whole. */
function slowLooksLikeSecret(id: string): boolean {
  if (/fd[kpv]_[0-9a-z]{8,}/i.test(id)) return true
  return id.split(/[^A-Za-z0-9]+/).some((run) => run.length > 32 || (run.length >= 20 && run !== run.toLowerCase() && run !== run.toUpperCase()))
}

test('whatever comes in, the id is echoed only in the sane shape, and otherwise is a new UUID', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: idChar, maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 })), (incoming) => {
      const id = requestIdOf(incoming)
      const echoed = id === incoming
      assert.is(echoed, /^[A-Za-z0-9._:-]{8,64}$/.test(incoming) && !slowLooksLikeSecret(incoming), incoming)
      if (!echoed) assert.match(id, UUID)
    }),
    { numRuns: 2_000 },
  )
})

test('the fast check of a secret-like id agrees with the slow one', () => {
  const run = (chars: string) => fc.string({ unit: fc.constantFrom(...chars), minLength: 1, maxLength: 40 })
  const part = fc.oneof(run('abcdef0123456789'), run('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), run('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), run('._:-'))
  fc.assert(
    fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
      const id = parts.join('')
      assert.is(looksLikeSecret(id), slowLooksLikeSecret(id), id)
    }),
    { numRuns: 2_000 },
  )
})

test('a key or token, with or without its prefix, whole or in part, within any id, is never echoed', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('tenant', 'personal'),
      fc.boolean(),
      fc.string({ unit: fc.constantFrom('.', '_', ':', '-', 'a', '7'), maxLength: 8 }),
      fc.string({ unit: fc.constantFrom('.', '_', ':', '-', 'Z', '0'), maxLength: 8 }),
      fc.integer({ min: 20, max: 38 }),
      (kind, prefixed, before, after, kept) => {
        const key = generateApiKey(kind).key
        const body = key.slice(4)
        // Hint: a body of base62 mixes the two cases with near certainty; the rare one that does not is no test of this rule.
        fc.pre(/[a-z]/.test(body.slice(0, kept)) && /[A-Z]/.test(body.slice(0, kept)))
        const secret = prefixed ? key : body.slice(0, kept)
        const incoming = `${before}${secret}${after}`
        assert.is.not(requestIdOf(incoming), incoming)
      },
    ),
    { numRuns: 500 },
  )
})

test('ids proxies and tracers make are echoed: UUIDs, hex trace ids, ULIDs, numbers, dotted and tagged ids', () => {
  const ids = [randomUUID(), randomUUID().replaceAll('-', ''), '4bf92f3577b34da6a3ce929d0e0e4736', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '1234567890123', 'proxy-1234:abcd.EF_9', 'req_8f3a9c2e', 'trace.0af7651916cd43dd8448eb211c80319c']
  for (const id of ids) assert.is(requestIdOf(id), id, id)
  for (const id of ['short', 'x'.repeat(65), '0'.repeat(33), 'aB3dE5gH7jK9mN1pQ3sT', ['a-1', 'b-2']]) assert.match(requestIdOf(id as string), UUID, String(id))
})

test.run()

import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isoAt } from '../app/clock.ts'
import { FrontdeskError, IdempotencyError, ValidationError } from '../errors/frontdesk-error.ts'
import type { InquiryRecord } from '../model/inquiry.ts'
import type { Store } from '../port/store.ts'
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RENEW_MS, IDEMPOTENCY_WINDOW_MS, inquiryRequestHash } from './idempotency-key.ts'
import { parseInquiryInput } from './inquiry-input.ts'
import { DEFAULT_INQUIRY_MESSAGE } from './inquiry-created.ts'
import type { InquiryFixture } from '../../test/util/inquiry-fixture.ts'
import { inquiryFixture, VALID_BODY, within } from '../../test/util/inquiry-fixture.ts'

async function refusal(promise: Promise<unknown>): Promise<FrontdeskError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof FrontdeskError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

async function count(f: InquiryFixture): Promise<number> {
  return (await f.store.listInquiries(f.principal.tenant.id, { limit: 1000 })).length
}

const create = suite<{ f: InquiryFixture }>('createInquiry')
create.before.each(async (context) => {
  context.f = await inquiryFixture()
})
create.after.each(async ({ f }) => {
  await f.close()
})

create('a valid body is stored and answered 201 with the creation response, never cached', async ({ f }) => {
  const reply = await f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, priority: 3, inquirer_phone: '03-1234-5678' })
  assert.is(reply.status, 201)
  assert.equal(reply.cache, { kind: 'no-store' })
  assert.is(reply.replayed, undefined)
  assert.match(reply.body.id, /^inq_[0-9a-z]{26}$/)
  assert.equal(reply.body, {
    id: reply.body.id,
    category_code: 'general',
    title: VALID_BODY.title,
    status: 'open',
    created_at: isoAt(f.clock.now()),
    message: 'Thanks! We reply within two business days.',
  })
  const stored = await f.store.getInquiry(f.principal.tenant.id, reply.body.id)
  assert.equal(stored, {
    tenant_id: f.principal.tenant.id,
    id: reply.body.id,
    category_code: 'general',
    title: VALID_BODY.title,
    content: VALID_BODY.content,
    priority: 3,
    inquirer_name: VALID_BODY.inquirer_name,
    inquirer_email: VALID_BODY.inquirer_email,
    inquirer_phone: '03-1234-5678',
    inquirer_company: null,
    inquirer_department: null,
    status: 'open',
    api_key_id: f.principal.key.id,
    created_at: isoAt(f.clock.now()),
  })
})

create('a category without a message of its own answers with the default message', async ({ f }) => {
  await f.category(f.principal.tenant.id, { code: 'sales', message: '  ' })
  const reply = await f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, category_code: 'sales' })
  assert.is(reply.body.message, DEFAULT_INQUIRY_MESSAGE)
})

create('an unknown or inactive category is a 400 on category_code, reported with the other fields', async ({ f }) => {
  await f.category(f.principal.tenant.id, { code: 'closed', active: false })
  for (const code of ['nope', 'closed']) {
    const error = await refusal(f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, category_code: code, title: '', extra: 1 }))
    assert.instance(error, ValidationError)
    assert.equal(error.details, [
      { field: 'category_code', message: 'must be the code of an active inquiry category' },
      { field: 'title', message: 'must not be empty' },
      { field: 'extra', message: 'is not a known field' },
    ])
  }
  assert.is(await count(f), 0)
})

create("another tenant's category does not count", async ({ f }) => {
  const other = await f.otherTenant('globex')
  const error = await refusal(f.frontdesk.createInquiry(other, VALID_BODY))
  assert.equal(error.details, [{ field: 'category_code', message: 'must be the code of an active inquiry category' }])
})

create('a malformed Idempotency-Key is a 400 on that field, reported with the body fields', async ({ f }) => {
  const error = await refusal(f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, inquirer_email: 'x' }, 'ｋｅｙ'))
  assert.equal(error.details, [
    { field: 'inquirer_email', message: 'must be a valid e-mail address, like name@example.com' },
    { field: 'Idempotency-Key', message: 'must contain only printable ASCII characters' },
  ])
  const alone = await refusal(f.frontdesk.createInquiry(f.principal, VALID_BODY, 'k'.repeat(256)))
  assert.equal(alone.details, [{ field: 'Idempotency-Key', message: 'must be at most 255 characters' }])
  assert.is(await count(f), 0)
})

create('a repeat with the same key and the same body replays the first response and creates nothing', async ({ f }) => {
  const first = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'order-42')
  f.clock.advance(5_000)
  const reordered = { ...Object.fromEntries(Object.entries(VALID_BODY).reverse()), title: `  ${VALID_BODY.title} `, priority: 2 }
  const again = await f.frontdesk.createInquiry(f.principal, reordered, 'order-42')
  assert.is(again.status, 201)
  assert.is(again.replayed, true)
  assert.equal(again.cache, { kind: 'no-store' })
  assert.equal(again.body, first.body)
  assert.is(await count(f), 1)
})

create('a replay still answers after its category was switched off', async ({ f }) => {
  const first = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'before-close')
  await f.category(f.principal.tenant.id, { code: 'general', active: false })
  const again = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'before-close')
  assert.is(again.replayed, true)
  assert.equal(again.body, first.body)
  const fresh = await refusal(f.frontdesk.createInquiry(f.principal, VALID_BODY, 'after-close'))
  assert.equal(fresh.details, [{ field: 'category_code', message: 'must be the code of an active inquiry category' }])
})

create('the same key with a different body is refused as reused (422)', async ({ f }) => {
  await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'k1')
  const error = await refusal(f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, title: 'Another question' }, 'k1'))
  assert.instance(error, IdempotencyError)
  assert.is(error.code, 'IDEMPOTENCY_KEY_REUSED')
  assert.is(await count(f), 1)
})

create('a key still held by a running request is refused as in progress (409, retry when its lease ends), then taken over once its lease ran out', async ({ f }) => {
  const now = f.clock.now()
  const times = { holder: 'another-request', now: isoAt(now), expiredBefore: isoAt(now - IDEMPOTENCY_WINDOW_MS), staleBefore: isoAt(now - IDEMPOTENCY_LEASE_MS) }
  assert.equal(await f.store.claimIdempotencyKey(f.principal.tenant.id, 'busy', 'some-hash', times), { state: 'claimed' })
  const error = await refusal(f.frontdesk.createInquiry(f.principal, VALID_BODY, 'busy'))
  assert.is(error.code, 'IDEMPOTENCY_IN_PROGRESS')
  assert.instance(error, IdempotencyError)
  assert.is((error as IdempotencyError).retryAfter, IDEMPOTENCY_LEASE_MS / 1000)
  f.clock.advance(IDEMPOTENCY_LEASE_MS - 1_500)
  assert.is(((await refusal(f.frontdesk.createInquiry(f.principal, VALID_BODY, 'busy'))) as IdempotencyError).retryAfter, 2)
  assert.is(await count(f), 0)
  // The claimer died: once its lease ran out (a few seconds), a retry runs.
  f.clock.advance(1_501)
  const reply = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'busy')
  assert.is(reply.replayed, undefined)
  assert.is(await count(f), 1)
})

/** A fixture whose first `insertInquiry` waits until `release()`. */
async function heldFirstInsert(): Promise<{ f: InquiryFixture; release(): void }> {
  let release = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  let first = true
  const f = await inquiryFixture({
    wrap: (store) =>
      new Proxy(store, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver) as unknown
          if (name !== 'insertInquiry' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value
          return async (...args: unknown[]) => {
            if (first) {
              first = false
              await gate
            }
            return (value as (...a: unknown[]) => Promise<void>).apply(target, args)
          }
        },
      }),
  })
  return { f, release }
}

create('a running request renews its claim: a repeat past the first lease is still refused as in progress', async () => {
  const { f, release } = await heldFirstInsert()
  try {
    const first = f.frontdesk.createInquiry(f.principal, VALID_BODY, 'slow')
    // Hint: awaited below; should an assertion fail first, its rejection must not crash the run unhandled.
    first.catch(() => {})
    f.clock.advance(IDEMPOTENCY_LEASE_MS - 1_000)
    await new Promise((resolve) => setTimeout(resolve, IDEMPOTENCY_RENEW_MS + 200))
    f.clock.advance(IDEMPOTENCY_LEASE_MS - 1_000)
    // Hint: claimed at 0, renewed at 4 s; at 8 s an unrenewed claim would have lapsed.
    assert.is((await refusal(f.frontdesk.createInquiry(f.principal, VALID_BODY, 'slow'))).code, 'IDEMPOTENCY_IN_PROGRESS')
    release()
    assert.is((await first).replayed, undefined)
    assert.is((await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'slow')).replayed, true)
    assert.is(await count(f), 1)
  } finally {
    release()
    await f.close()
  }
})

create('a request whose claim was taken over (its lease ran out) stores nothing and answers in progress', async () => {
  const { f, release } = await heldFirstInsert()
  try {
    const stalled = f.frontdesk.createInquiry(f.principal, VALID_BODY, 'stalled')
    // Hint: its refusal is awaited below; should an assertion fail first, it must not crash the run unhandled.
    stalled.catch(() => {})
    f.clock.advance(IDEMPOTENCY_LEASE_MS + 1)
    const retry = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'stalled')
    assert.is(retry.replayed, undefined)
    release()
    const error = await refusal(stalled)
    assert.is(error.code, 'IDEMPOTENCY_IN_PROGRESS')
    assert.is(await count(f), 1)
    assert.equal((await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'stalled')).body, retry.body)
  } finally {
    release()
    await f.close()
  }
})

create('after 24 hours a key is free again', async ({ f }) => {
  await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'daily')
  f.clock.advance(IDEMPOTENCY_WINDOW_MS - 1000)
  assert.is((await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'daily')).replayed, true)
  f.clock.advance(2000)
  const fresh = await f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, title: 'New day' }, 'daily')
  assert.is(fresh.replayed, undefined)
  assert.is(await count(f), 2)
})

create('idempotency keys are scoped to the tenant', async ({ f }) => {
  const other = await f.otherTenant('globex')
  await f.category(other.tenant.id, { code: 'general' })
  const a = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'shared')
  const b = await f.frontdesk.createInquiry(other, { ...VALID_BODY, title: 'Different' }, 'shared')
  assert.is(b.replayed, undefined)
  assert.is.not(a.body.id, b.body.id)
  assert.is((await f.store.listInquiries(other.tenant.id, { limit: 10 })).length, 1)
})

create('an invalid body with a key stores nothing and leaves the key free', async ({ f }) => {
  await refusal(f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, title: '' }, 'retry-me'))
  const reply = await f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, title: 'Fixed' }, 'retry-me')
  assert.is(reply.replayed, undefined)
  assert.is(reply.body.title, 'Fixed')
})

create('a category refused after the key was claimed releases the key for a retry', async ({ f }) => {
  const body = { ...VALID_BODY, category_code: 'later' }
  const error = await refusal(f.frontdesk.createInquiry(f.principal, body, 'k-later'))
  assert.equal(error.details, [{ field: 'category_code', message: 'must be the code of an active inquiry category' }])
  await f.category(f.principal.tenant.id, { code: 'later' })
  const reply = await f.frontdesk.createInquiry(f.principal, body, 'k-later')
  assert.is(reply.status, 201)
  assert.is(reply.replayed, undefined)
})

create('a stored response that is not a creation response is an internal error, never replayed as such', async ({ f }) => {
  const parsed = parseInquiryInput(VALID_BODY)
  if (!parsed.ok) throw new Error('fixture body is invalid')
  const now = f.clock.now()
  const times = { holder: 'odd-request', now: isoAt(now), expiredBefore: isoAt(now - IDEMPOTENCY_WINDOW_MS), staleBefore: isoAt(now - IDEMPOTENCY_LEASE_MS) }
  await f.store.claimIdempotencyKey(f.principal.tenant.id, 'odd', inquiryRequestHash(parsed.value), times)
  const first = await f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, title: 'other' })
  const record = await f.store.getInquiry(f.principal.tenant.id, first.body.id)
  if (record === null) throw new Error('not stored')
  await f.store.insertInquiry({ ...record, id: 'inq_odd' }, { key: 'odd', holder: 'odd-request', response: { status: 201, body: { unexpected: true } } })
  const error = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'odd').then(() => null, (e: unknown) => e)
  assert.instance(error, Error)
  assert.not.instance(error, FrontdeskError)
})

create('50 concurrent requests with one key create exactly one inquiry', async ({ f }) => {
  const results = await within(20_000, Promise.allSettled(Array.from({ length: 50 }, () => f.frontdesk.createInquiry(f.principal, VALID_BODY, 'burst'))))
  const created = results.filter((r) => r.status === 'fulfilled' && r.value.replayed === undefined)
  const replayed = results.filter((r) => r.status === 'fulfilled' && r.value.replayed === true)
  const inProgress = results.filter((r) => r.status === 'rejected' && (r.reason as FrontdeskError).code === 'IDEMPOTENCY_IN_PROGRESS')
  assert.is(created.length, 1)
  assert.is(created.length + replayed.length + inProgress.length, 50, 'only 201, replay or 409')
  assert.is(await count(f), 1)
})

create('concurrent requests without a key all create', async ({ f }) => {
  const replies = await within(20_000, Promise.all(Array.from({ length: 20 }, (_, i) => f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, title: `#${i}` }))))
  assert.is(new Set(replies.map((r) => r.body.id)).size, 20)
  assert.is(await count(f), 20)
})

create('random bodies are refused with a ValidationError only, and nothing is stored (property)', async ({ f }) => {
  const field = fc.constantFrom('category_code', 'title', 'content', 'priority', 'inquirer_name', 'inquirer_email', 'inquirer_phone', '__proto__', 'x')
  const body = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(field, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 9 }))
  await fc.assert(
    fc.asyncProperty(body, fc.option(fc.string({ maxLength: 300 }), { nil: null }), async (candidate, key) => {
      const input = JSON.parse(JSON.stringify(candidate ?? null)) as unknown
      try {
        await f.frontdesk.createInquiry(f.principal, input, key)
      } catch (error) {
        assert.ok(error instanceof ValidationError, String(error))
        return
      }
      // Only a body naming category general with every required field can pass; random input never does.
      throw new Error(`accepted ${JSON.stringify(input)}`)
    }),
    { numRuns: 150 },
  )
  assert.is(await count(f), 0)
})

create.run()

const failing = suite('createInquiry when storage fails')

failing('a failed insert releases the claim, so that the retry with the same key succeeds', async () => {
  let failNext = true
  const wrap = (store: Store): Store =>
    new Proxy(store, {
      get(target, name, receiver) {
        if (name === 'insertInquiry') {
          return async (...args: Parameters<Store['insertInquiry']>) => {
            if (failNext) {
              failNext = false
              throw new Error('disk full')
            }
            return target.insertInquiry(...args)
          }
        }
        const value = Reflect.get(target, name, receiver)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  const f = await inquiryFixture({ wrap })
  try {
    const failed = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'k').then(() => null, (error: unknown) => error)
    assert.is((failed as Error | null)?.message, 'disk full')
    const reply = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'k')
    assert.is(reply.status, 201)
    assert.is(reply.replayed, undefined)
    assert.is(await count(f), 1)
  } finally {
    await f.close()
  }
})

failing.run()

const hooks = suite('onInquiryCreated')

hooks('the hook gets the committed inquiry once, and never for a replay', async () => {
  const seen: InquiryRecord[] = []
  let notify: () => void = () => {}
  const called = new Promise<void>((resolve) => (notify = resolve))
  const f = await inquiryFixture({
    hooks: {
      onInquiryCreated: async (inquiry) => {
        // The inquiry is committed before the hook runs.
        assert.ok(await f.store.getInquiry(inquiry.tenant_id, inquiry.id))
        seen.push(inquiry)
        notify()
      },
    },
  })
  try {
    const reply = await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'once')
    await within(2000, called)
    await f.frontdesk.createInquiry(f.principal, VALID_BODY, 'once')
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.is(seen.length, 1)
    assert.is(seen[0]?.id, reply.body.id)
    assert.is(seen[0]?.content, VALID_BODY.content)
  } finally {
    await f.close()
  }
})

hooks('a hook that throws, rejects or never settles neither fails nor delays the inquiry', async () => {
  const errors: unknown[] = []
  const f = await inquiryFixture({
    hooks: {
      // Hint: the hook runs later than the reply, so it reads its mode from the inquiry itself.
      onInquiryCreated: ({ title: mode }) => {
        if (mode === 'throw') throw new Error('mailer down')
        if (mode === 'reject') return Promise.reject(new Error('mailer timeout'))
        return new Promise<void>(() => {})
      },
      onHookError: (error, hook) => errors.push([(error as Error).message, hook]),
    },
  })
  try {
    for (const next of ['throw', 'reject', 'hang']) {
      const reply = await within(2000, f.frontdesk.createInquiry(f.principal, { ...VALID_BODY, title: next }))
      assert.is(reply.status, 201)
      assert.ok(await f.store.getInquiry(f.principal.tenant.id, reply.body.id))
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(errors, [
      ['mailer down', 'onInquiryCreated'],
      ['mailer timeout', 'onInquiryCreated'],
    ])
    assert.is(await count(f), 3)
  } finally {
    await f.close()
  }
})

hooks.run()

import { isoAt } from '../app/clock.ts'
import type { Context } from '../app/context.ts'
import type { CachePolicy, Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { IdempotencyError, ValidationError } from '../errors/frontdesk-error.ts'
import type { InquiryCategoryRecord, InquiryRecord } from '../model/inquiry.ts'
import { inquiryCreatedEvent } from '../events/inquiry-event.ts'
import { newId } from '../util/ids.ts'
import {
  checkIdempotencyKey, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RENEW_MS, IDEMPOTENCY_WINDOW_MS, idempotencyInProgress, inquiryRequestHash, leaseLeftSeconds,
} from './idempotency-key.ts'
import type { InquiryCreated } from './inquiry-created.ts'
import { isInquiryCreated, toInquiryCreated } from './inquiry-created.ts'
import type { InquiryInput } from './inquiry-input.ts'
import { parseInquiryInput } from './inquiry-input.ts'
import { notifyInquiryCreated } from './notify-inquiry-created.ts'

const NO_STORE: CachePolicy = { kind: 'no-store' }

const UNKNOWN_CATEGORY: ErrorDetail = { field: 'category_code', message: 'must be the code of an active inquiry category' }

/**
 * `POST /v1/inquiries`: checks the body (`parseInquiryInput`; every invalid field, the
 * `Idempotency-Key` header and an unknown or inactive `category_code` reported together in one
 * `ValidationError`), stores the inquiry, and replies 201 with the creation response once the
 * store has committed it, so an acknowledged inquiry survives a crash right after.
 *
 * With an `Idempotency-Key` (scoped to the tenant, 24 h): the first request claims the key and
 * its response is stored in the same transaction as the inquiry; a repeat with the same
 * checked body replays that response (`replayed: true`) and creates nothing; a different body
 * is `IDEMPOTENCY_KEY_REUSED`; a repeat while the first is running is
 * `IDEMPOTENCY_IN_PROGRESS` (with the seconds until the holder's lease runs out, for
 * `Retry-After`). A request refused as invalid stores nothing and leaves the key
 * free; a request that fails after claiming releases the claim so that a retry can run. The
 * claim is a lease (`IDEMPOTENCY_LEASE_MS`) the request renews while it runs, so the claim of
 * a process that died is taken over within seconds, and a holder that lost its claim stores
 * nothing (`IDEMPOTENCY_IN_PROGRESS`).
 *
 * Its `inquiry.created` event is committed with it. After the commit, `hooks.onInquiryCreated`
 * runs off the reply path (never for a replay).
 */
export async function createInquiry(ctx: Context, principal: Principal, body: unknown, idempotencyKey: string | null): Promise<Reply<InquiryCreated>> {
  const tenantId = principal.tenant.id
  const parsed = parseInquiryInput(body)
  const keyDetail = idempotencyKey === null ? null : checkIdempotencyKey(idempotencyKey)
  if (!parsed.ok || keyDetail !== null) {
    const details = parsed.ok ? [] : parsed.details.slice()
    const code = parsed.ok ? parsed.value.category_code : parsed.categoryCode
    // Hint: the category is checked even when other fields failed, so one reply lists everything.
    if (code !== null && (await activeCategory(ctx, tenantId, code)) === null) details.unshift(UNKNOWN_CATEGORY)
    if (keyDetail !== null) details.push(keyDetail)
    throw new ValidationError(details)
  }
  const input = parsed.value
  if (idempotencyKey === null) return create(ctx, principal, input, null)

  const now = ctx.clock.now()
  const hash = inquiryRequestHash(input)
  const holder = crypto.randomUUID()
  const claim = await ctx.store.claimIdempotencyKey(tenantId, idempotencyKey, hash, {
    holder,
    now: isoAt(now),
    expiredBefore: isoAt(now - IDEMPOTENCY_WINDOW_MS),
    staleBefore: isoAt(now - IDEMPOTENCY_LEASE_MS),
  })
  if (claim.state === 'in_flight') {
    throw idempotencyInProgress(leaseLeftSeconds(claim.renewed_at, now))
  }
  if (claim.state === 'completed') {
    if (claim.request_hash !== hash) {
      throw new IdempotencyError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body')
    }
    if (!isInquiryCreated(claim.response.body)) throw new Error('The stored idempotent response is not an inquiry creation response')
    return { status: 201, body: claim.response.body, cache: NO_STORE, replayed: true }
  }
  const lease = renewWhileRunning(ctx, tenantId, idempotencyKey, holder)
  try {
    return await create(ctx, principal, input, { key: idempotencyKey, holder })
  } catch (error) {
    await ctx.store.releaseIdempotencyKey(tenantId, idempotencyKey, holder).catch(() => {
      // Hint: if even the release fails, the lease runs out and a retry takes the claim over.
    })
    throw error
  } finally {
    lease.stop()
  }
}

/**
 * Renews the claim every `IDEMPOTENCY_RENEW_MS` until `stop()`, or until it is found taken over.
 * A renewal that fails (storage busy) is tried again on the next tick; one still under way is
 * not doubled.
 */
function renewWhileRunning(ctx: Context, tenantId: string, key: string, holder: string): { stop(): void } {
  let renewing = false
  const timer = setInterval(() => {
    if (renewing) return
    renewing = true
    ctx.store
      .renewIdempotencyKey(tenantId, key, holder, isoAt(ctx.clock.now()))
      .then(
        (held) => {
          if (!held) clearInterval(timer)
        },
        () => {
          // Hint: the next tick tries again; the lease outlasts several failed renewals.
        },
      )
      .finally(() => (renewing = false))
  }, IDEMPOTENCY_RENEW_MS)
  // Hint: a lease alone must not keep a process alive.
  timer.unref?.()
  return { stop: () => clearInterval(timer) }
}

async function create(
  ctx: Context,
  principal: Principal,
  input: InquiryInput,
  idempotency: { key: string; holder: string } | null,
): Promise<Reply<InquiryCreated>> {
  const category = await activeCategory(ctx, principal.tenant.id, input.category_code)
  if (category === null) throw new ValidationError([UNKNOWN_CATEGORY])
  const now = ctx.clock.now()
  const record: InquiryRecord = {
    tenant_id: principal.tenant.id,
    id: newId('inq', now),
    category_code: category.code,
    title: input.title,
    content: input.content,
    priority: input.priority,
    inquirer_name: input.inquirer_name,
    inquirer_email: input.inquirer_email,
    inquirer_phone: input.inquirer_phone,
    inquirer_company: input.inquirer_company,
    inquirer_department: input.inquirer_department,
    status: 'open',
    api_key_id: principal.key.id,
    created_at: isoAt(now),
  }
  const body = toInquiryCreated(record, category)
  const event = inquiryCreatedEvent(record, body, now)
  await ctx.store.insertInquiry(record, idempotency === null ? undefined : { ...idempotency, response: { status: 201, body: { ...body } } }, [event])
  void notifyInquiryCreated(ctx.hooks, record)
  return { status: 201, body, cache: NO_STORE }
}

async function activeCategory(ctx: Context, tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
  const category = await ctx.store.getInquiryCategoryByCode(tenantId, code)
  return category !== null && category.active ? category : null
}

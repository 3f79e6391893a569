import { requireTenant } from '../admin/require-tenant.ts'
import type { Context } from '../app/context.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { InquiryRecord, InquiryStatus } from '../model/inquiry.ts'

/** The inquiry statuses there are (creation yields `open`; the API names no other). */
export const INQUIRY_STATUSES: readonly InquiryStatus[] = ['open']

/**
 * The shape of an inquiry id: inquiries are only ever created by the API, with generated ids
 * (`newId('inq')`), so anything else cannot name one.
 */
export const INQUIRY_ID_PATTERN = /^inq_[0-9a-hjkmnp-tv-z]{26}$/

/** The page size of `listInquiries` when none is given. */
export const DEFAULT_INQUIRY_PAGE = 100

/** The largest page `listInquiries` returns at once; callers page on with `before`. */
export const MAX_INQUIRY_PAGE = 1000

/** Options of `listInquiries`. */
export interface ListInquiriesOptions {
  tenantCode: string
  /** Only inquiries with this status (checked against `INQUIRY_STATUSES`). Default: all. */
  status?: string
  /** Page size, 1–1000. Default: 100. */
  limit?: number
  /** An inquiry id: return only inquiries older than it (the next page). */
  before?: string
}

/**
 * An operator's view of a tenant's inquiries, newest first (CLI `inquiry list`). Throws a
 * `UsageError` for an unknown tenant or status, a bad limit or a malformed `before`.
 */
export async function listInquiries(ctx: Context, options: ListInquiriesOptions): Promise<InquiryRecord[]> {
  const tenant = await requireTenant(ctx, options.tenantCode)
  const status = options.status
  if (status !== undefined && !isInquiryStatus(status)) {
    throw new UsageError(`Unknown status: ${status} (expected: ${INQUIRY_STATUSES.join(', ')})`)
  }
  const limit = options.limit ?? DEFAULT_INQUIRY_PAGE
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_INQUIRY_PAGE) {
    throw new UsageError(`Invalid limit: ${limit} (expected an integer from 1 to ${MAX_INQUIRY_PAGE})`)
  }
  if (options.before !== undefined && !INQUIRY_ID_PATTERN.test(options.before)) {
    throw new UsageError(`Invalid inquiry id: ${options.before} (expected an id such as inq_01k0…, as inquiry list prints)`)
  }
  return ctx.store.listInquiries(tenant.id, {
    limit,
    ...(status === undefined ? {} : { status }),
    ...(options.before === undefined ? {} : { before: options.before }),
  })
}

/** Whether `value` is a known inquiry status. */
export function isInquiryStatus(value: string): value is InquiryStatus {
  return (INQUIRY_STATUSES as readonly string[]).includes(value)
}

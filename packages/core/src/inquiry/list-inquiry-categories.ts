import type * as v from 'valibot'
import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'
import type { InquiryCategoryListSchema, InquiryCategorySchema } from '../response/response-bodies.ts'

/** One entry of `GET /v1/inquiries/categories` (docs/API.md "InquiryCategory"); see `InquiryCategorySchema`. */
export type InquiryCategoryItem = v.InferOutput<typeof InquiryCategorySchema>

/** The body of `GET /v1/inquiries/categories`; see `InquiryCategoryListSchema`. */
export type InquiryCategoryList = v.InferOutput<typeof InquiryCategoryListSchema>

/**
 * `GET /v1/inquiries/categories`: the tenant's active inquiry categories, ordered by `sort`,
 * then `code`, to fill a form's selector. Replied `no-store`: the list is one cheap query, and
 * a category switched off must disappear from forms at once (a form that still offered it
 * would collect inquiries that are then refused).
 */
export async function listInquiryCategories(ctx: Context, principal: Principal): Promise<Reply<InquiryCategoryList>> {
  const records = await ctx.store.listInquiryCategories(principal.tenant.id)
  const categories = records
    .filter((category) => category.active)
    // Hint: the port promises this order; sorting again keeps the reply right over any adapter.
    .sort((a, b) => a.sort - b.sort || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map((category) => ({ code: category.code, name: category.name, description: category.description }))
  return { status: 200, body: { categories }, cache: { kind: 'no-store' } }
}

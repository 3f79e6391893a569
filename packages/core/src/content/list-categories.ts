import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'
import { cachedReply } from './cached-reply.ts'
import type * as v from 'valibot'
import type { CategoryListSchema } from '../response/response-bodies.ts'
import { toCategoryView } from './category-view.ts'
import { isCategoryVisible } from './visibility.ts'

/** The body of `GET /v1/cms/categories`; see `CategoryListSchema`. */
export type CategoryListBody = v.InferOutput<typeof CategoryListSchema>

/** GET /v1/cms/categories: the tenant's active categories, ordered by `sort`, then `code`. */
export async function listCategories(ctx: Context, principal: Principal): Promise<Reply<CategoryListBody>> {
  const tenantId = principal.tenant.id
  return cachedReply(ctx, tenantId, 'listCategories', '', async () => {
    const categories = await ctx.store.listCategories(tenantId)
    // Hint: the store orders them already; sorting again keeps the rule here, in one place.
    const items = categories.filter(isCategoryVisible).sort((a, b) => a.sort - b.sort || compare(a.code, b.code))
    return { items: items.map(toCategoryView) }
  })
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

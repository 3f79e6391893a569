import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'
import { NotFoundError } from '../errors/frontdesk-error.ts'
import { ID_PATTERN } from '../util/ids.ts'
import { cachedReply } from './cached-reply.ts'
import { LIST_LIMITS } from './list-params.ts'
import type { CategoryDetail } from './category-view.ts'
import { toCategoryDetail } from './category-view.ts'
import { isCategoryVisible } from './visibility.ts'

/**
 * GET /v1/cms/categories/{id}: an active category with its custom-field definitions; else 404.
 * The path takes the id only (a code could equal another category's id); a 404 for the code
 * of an active category says so and names its id.
 */
export async function getCategory(ctx: Context, principal: Principal, id: string): Promise<Reply<CategoryDetail>> {
  const tenantId = principal.tenant.id
  return cachedReply(ctx, tenantId, 'getCategory', id, async () => {
    const category = ID_PATTERN.test(id) ? await ctx.store.getCategory(tenantId, id) : null
    if (category === null || !isCategoryVisible(category)) throw new NotFoundError('Category', await codeHint(ctx, tenantId, id))
    return toCategoryDetail(category)
  })
}

/** The hint of a 404 whose "id" is the code of an active category of the tenant, else none. */
async function codeHint(ctx: Context, tenantId: string, id: string): Promise<string | undefined> {
  // Hint: what cannot be a code costs no read.
  const byCode = id === '' || id.length > LIST_LIMITS.maxCategoryCodeLength ? null : await ctx.store.getCategoryByCode(tenantId, id)
  if (byCode === null || !isCategoryVisible(byCode)) return undefined
  return `${JSON.stringify(id)} is a category code; this path takes the category's id (${byCode.id}), as GET /v1/cms/categories lists them`
}

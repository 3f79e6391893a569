import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'
import { NotFoundError } from '../errors/frontdesk-error.ts'
import { ID_PATTERN } from '../util/ids.ts'
import { cachedReply } from './cached-reply.ts'
import type { CategoryDetail } from './category-view.ts'
import { toCategoryDetail } from './category-view.ts'
import { isCategoryVisible } from './visibility.ts'

/** GET /v1/cms/categories/{id}: an active category with its custom-field definitions; else 404. */
export async function getCategory(ctx: Context, principal: Principal, id: string): Promise<Reply<CategoryDetail>> {
  const tenantId = principal.tenant.id
  return cachedReply(ctx, tenantId, 'getCategory', id, async () => {
    const category = ID_PATTERN.test(id) ? await ctx.store.getCategory(tenantId, id) : null
    if (category === null || !isCategoryVisible(category)) throw new NotFoundError('Category')
    return toCategoryDetail(category)
  })
}

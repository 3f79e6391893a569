import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'

/** GET /v1/cms/categories. */
export async function listCategories(_ctx: Context, _principal: Principal): Promise<Reply<unknown>> {
  throw new Error('not implemented yet')
}

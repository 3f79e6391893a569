import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'

/** POST /v1/cms/search. */
export async function searchContents(_ctx: Context, _principal: Principal, _body: unknown): Promise<Reply<unknown>> {
  throw new Error('not implemented yet')
}

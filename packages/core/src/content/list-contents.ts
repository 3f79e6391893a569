import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'

/** GET /v1/cms/contents. */
export async function listContents(_ctx: Context, _principal: Principal, _query: URLSearchParams, _previewToken: string | null): Promise<Reply<unknown>> {
  throw new Error('not implemented yet')
}

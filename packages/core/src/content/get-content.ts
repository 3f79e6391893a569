import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'

/** GET /v1/cms/contents/{id} and GET /v1/cms/contents/slug/{slug} (same body). */
export async function getContent(_ctx: Context, _principal: Principal, _by: { id: string } | { slug: string }, _previewToken: string | null): Promise<Reply<unknown>> {
  throw new Error('not implemented yet')
}

import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'

/** POST /v1/inquiries. */
export async function createInquiry(_ctx: Context, _principal: Principal, _body: unknown, _idempotencyKey: string | null): Promise<Reply<unknown>> {
  throw new Error('not implemented yet')
}

import type { Context } from '../app/context.ts'
import { isoAt } from '../app/clock.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { PreviewTokenRecord } from '../model/preview-token.ts'

/**
 * Revokes a preview token by id: every later request presenting it gets 401
 * `PREVIEW_TOKEN_INVALID`, in every server process. Revoking twice keeps the first time.
 * Throws `UsageError` `Unknown preview token: <id>` when there is no such token.
 */
export async function revokePreviewToken(ctx: Context, id: string): Promise<PreviewTokenRecord> {
  const record = await ctx.store.getPreviewToken(id)
  if (record === null) throw new UsageError(`Unknown preview token: ${id}`)
  if (record.revoked_at !== null) return record
  const at = isoAt(ctx.clock.now())
  if (!(await ctx.store.revokePreviewToken(id, at))) throw new UsageError(`Unknown preview token: ${id}`)
  return { ...record, revoked_at: at }
}

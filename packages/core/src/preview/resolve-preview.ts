import type { Context } from '../app/context.ts'
import { checkSecret, hashSecret } from '../auth/secret-token.ts'
import { AuthError } from '../errors/frontdesk-error.ts'
import type { PreviewTarget } from '../model/preview-token.ts'
import { PREVIEW_TOKEN_PREFIX } from './preview-secret.ts'

/**
 * What a presented preview token opens, for a request of `tenantId` (README "Preview flow"). Throws
 * `AuthError` `PREVIEW_TOKEN_INVALID` for a token that is malformed, fails its checksum (both
 * refused without touching storage), is unknown, revoked or belongs to another tenant, and
 * `PREVIEW_TOKEN_EXPIRED` once its lifetime is over. The token is a credential: it never
 * changes what requests without it see.
 */
export async function resolvePreview(ctx: Context, tenantId: string, token: string): Promise<PreviewTarget> {
  if (checkSecret(token, [PREVIEW_TOKEN_PREFIX]) === null) throw invalid()
  const record = await ctx.store.findPreviewTokenByHash(hashSecret(token))
  // Hint: another tenant's token is reported exactly like an unknown one.
  if (record === null || record.tenant_id !== tenantId || record.revoked_at !== null) throw invalid()
  if (Date.parse(record.expires_at) <= ctx.clock.now()) {
    throw new AuthError('PREVIEW_TOKEN_EXPIRED', 'Preview token has expired')
  }
  return record.target
}

function invalid(): AuthError {
  return new AuthError('PREVIEW_TOKEN_INVALID', 'Invalid preview token')
}

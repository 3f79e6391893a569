import type { Context } from '../app/context.ts'
import { isoAt } from '../app/clock.ts'
import { findContent } from '../admin/find-content.ts'
import { requireTenant } from '../admin/require-tenant.ts'
import { createSecret, hashSecret } from '../auth/secret-token.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { PreviewTarget, PreviewTokenRecord } from '../model/preview-token.ts'
import { newId } from '../util/ids.ts'
import { formatDuration } from './duration.ts'
import { DEFAULT_PREVIEW_TTL_MS, MAX_PREVIEW_TTL_MS, PREVIEW_TOKEN_PREFIX } from './preview-secret.ts'

/** Input of `createPreviewToken`. */
export interface CreatePreviewTokenInput {
  tenantCode: string
  /** The content item (by id, or slug) or category (by id, or code) the token opens. */
  target: PreviewTarget
  /** Lifetime in ms. Default 1 hour, at most 7 days. */
  ttlMs?: number
}

/**
 * Creates a preview token for one content item or one category of a tenant (README "Preview flow").
 * The token (`fdv_…`) is returned once; only its SHA-256 is stored. The target must exist in
 * that tenant (any status: previewing drafts is the point); the stored target is its id.
 * Throws `UsageError` for an unknown tenant or target, or a lifetime out of range.
 */
export async function createPreviewToken(ctx: Context, input: CreatePreviewTokenInput): Promise<{ record: PreviewTokenRecord; token: string }> {
  const ttlMs = input.ttlMs ?? DEFAULT_PREVIEW_TTL_MS
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1_000 || ttlMs > MAX_PREVIEW_TTL_MS) {
    throw new UsageError(`A preview token lives from 1s to ${formatDuration(MAX_PREVIEW_TTL_MS)}`)
  }
  const tenant = await requireTenant(ctx, input.tenantCode)
  const target = await resolveTarget(ctx, tenant.id, input.target)
  const now = ctx.clock.now()
  const token = createSecret(PREVIEW_TOKEN_PREFIX)
  const record: PreviewTokenRecord = {
    id: newId('prv', now),
    tenant_id: tenant.id,
    target,
    hash: hashSecret(token),
    created_at: isoAt(now),
    expires_at: isoAt(now + ttlMs),
    revoked_at: null,
  }
  await ctx.store.createPreviewToken(record)
  return { record, token }
}

async function resolveTarget(ctx: Context, tenantId: string, target: PreviewTarget): Promise<PreviewTarget> {
  if (target.kind === 'content') {
    const item = await findContent(ctx.store, tenantId, target.id)
    return { kind: 'content', id: item.id }
  }
  const category = (await ctx.store.getCategory(tenantId, target.id)) ?? (await ctx.store.getCategoryByCode(tenantId, target.id))
  if (category === null) throw new UsageError(`Unknown category: ${target.id}`)
  return { kind: 'category', id: category.id }
}

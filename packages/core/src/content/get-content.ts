import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'
import { NotFoundError } from '../errors/frontdesk-error.ts'
import type { PreviewTarget } from '../model/preview-token.ts'
import { resolvePreview } from '../preview/resolve-preview.ts'
import { ID_PATTERN } from '../util/ids.ts'
import { isStorableText } from '../validation/storable-text.ts'
import { cachedReply, NO_STORE } from './cached-reply.ts'
import type { ContentDetail } from './content-view.ts'
import { toContentDetail } from './content-view.ts'
import { isContentVisible } from './visibility.ts'

/** Slugs longer than this cannot exist (nor ones no store can hold); such lookups are 404 without a query. */
const MAX_SLUG_LENGTH = 500

/**
 * GET /v1/cms/contents/{id} and GET /v1/cms/contents/slug/{slug} (same body). An item that is
 * a draft, scheduled, in an inactive category, of another tenant or absent is 404
 * `NOT_FOUND` alike. A valid preview token opens its item (content-bound) or its category's
 * items (category-bound) whatever their status; such replies are never cached (`no-store`).
 */
export async function getContent(
  ctx: Context,
  principal: Principal,
  by: { id: string } | { slug: string },
  previewToken: string | null,
): Promise<Reply<ContentDetail>> {
  const tenantId = principal.tenant.id
  const preview = previewToken === null ? null : await resolvePreview(ctx, tenantId, previewToken)
  if (preview !== null) return { status: 200, body: await detail(ctx, tenantId, by, preview), cache: NO_STORE }
  const request = 'id' in by ? `id:${by.id}` : `slug:${by.slug}`
  return cachedReply(ctx, tenantId, 'getContent', request, () => detail(ctx, tenantId, by, null))
}

async function detail(ctx: Context, tenantId: string, by: { id: string } | { slug: string }, preview: PreviewTarget | null): Promise<ContentDetail> {
  const content =
    'id' in by
      ? ID_PATTERN.test(by.id) ? await ctx.store.getContent(tenantId, by.id) : null
      : by.slug !== '' && by.slug.length <= MAX_SLUG_LENGTH && isStorableText(by.slug) ? await ctx.store.getContentBySlug(tenantId, by.slug) : null
  if (content === null) throw new NotFoundError('Content')
  const category = await ctx.store.getCategory(tenantId, content.category_id)
  if (category === null || !isContentVisible(content, category, ctx.clock.now(), preview)) throw new NotFoundError('Content')
  return toContentDetail(content, category)
}

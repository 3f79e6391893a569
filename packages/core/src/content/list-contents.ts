import type { Context } from '../app/context.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import type { PreviewTarget } from '../model/preview-token.ts'
import { resolvePreview } from '../preview/resolve-preview.ts'
import { cachedReply, NO_STORE } from './cached-reply.ts'
import type * as v from 'valibot'
import type { ContentListSchema } from '../response/response-bodies.ts'
import type { ContentListItem } from './content-view.ts'
import { toContentListItem } from './content-view.ts'
import { CURSOR_SECRET } from '../app/instance-secrets.ts'
import type { CursorBinding } from './cursor.ts'
import { encodeCursor } from './cursor.ts'
import type { ListParams } from './list-params.ts'
import { canonicalListQuery, parseListParams, PREVIEW_TOKEN_PARAMETER } from './list-params.ts'
import { resolveListQuery, sortPosition } from './resolve-list-query.ts'

/** The body of `GET /v1/cms/contents`; see `ContentListSchema`. */
export type ContentListBody = v.InferOutput<typeof ContentListSchema>

/**
 * GET /v1/cms/contents: one page of the visible content, filtered and sorted as the query
 * asks (README "Content list"), walked with keyset cursors. The preview token is taken from the
 * argument, else from `?preview_token=`; a valid one makes the reply a preview reply (never
 * cached, `no-store`), and a category-bound one also lists that category's unpublished items
 * when the list is filtered to that category.
 */
export async function listContents(ctx: Context, principal: Principal, query: URLSearchParams, previewToken: string | null): Promise<Reply<ContentListBody>> {
  const tenantId = principal.tenant.id
  // Hint: the token is a credential, so it is checked before the input (README "Errors" order).
  const token = previewToken ?? onlyValue(query, PREVIEW_TOKEN_PARAMETER)
  const preview = token === null ? null : await resolvePreview(ctx, tenantId, token)
  const { params, details } = parseListParams(query)
  if (preview !== null || details.length > 0) {
    return { status: 200, body: await listPage(ctx, tenantId, params, details, preview), cache: NO_STORE }
  }
  const request = `${canonicalListQuery(params)}\u0000${params.limit}\u0000${params.cursor ?? ''}`
  return cachedReply(ctx, tenantId, 'listContents', request, () => listPage(ctx, tenantId, params, details, null))
}

async function listPage(
  ctx: Context,
  tenantId: string,
  params: ListParams,
  details: ErrorDetail[],
  preview: PreviewTarget | null,
): Promise<ContentListBody> {
  const categories = await ctx.store.listCategories(tenantId)
  // Hint: the secret is needed only to read or write a cursor; a first page that fits needs none.
  const binding = async (): Promise<CursorBinding> => ({ secret: await ctx.secrets.get(CURSOR_SECRET), tenantId })
  const resolved = resolveListQuery(params, details, categories, ctx.clock.now(), preview, params.cursor === null ? null : await binding())
  if (resolved.query === null) return { items: [], pagination: { count: 0, next_cursor: null, has_more: false } }
  const rows = await ctx.store.listContents(tenantId, resolved.query)
  const hasMore = rows.length > resolved.limit
  const page = rows.slice(0, resolved.limit)
  const byId = new Map(categories.map((category) => [category.id, category]))
  const items: ContentListItem[] = []
  for (const row of page) {
    const category = byId.get(row.category_id)
    if (category !== undefined) items.push(toContentListItem(row, category))
  }
  const last = page.at(-1)
  const nextCursor = hasMore && last !== undefined ? encodeCursor(await binding(), resolved.fingerprint, sortPosition(last, resolved.query.sort)) : null
  return { items, pagination: { count: items.length, next_cursor: nextCursor, has_more: hasMore } }
}

function onlyValue(query: URLSearchParams, name: string): string | null {
  // Hint: a repeated parameter is reported by the parameter check, not guessed at here.
  const values = query.getAll(name)
  return values.length === 1 ? (values[0] ?? null) : null
}

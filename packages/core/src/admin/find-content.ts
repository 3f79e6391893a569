import { UsageError } from '../errors/frontdesk-error.ts'
import type { ContentRecord } from '../model/content.ts'
import type { ContentReader } from '../port/store.ts'

/**
 * The tenant's item whose id is `idOrSlug`, else the one whose slug is; a `UsageError` when
 * neither exists. Ids are tried first (an id and a slug can only collide on purpose).
 */
export async function findContent(reader: ContentReader, tenantId: string, idOrSlug: string): Promise<ContentRecord> {
  const item = (await reader.getContent(tenantId, idOrSlug)) ?? (await reader.getContentBySlug(tenantId, idOrSlug))
  if (item === null) throw new UsageError(`Unknown content: ${idOrSlug}`)
  return item
}

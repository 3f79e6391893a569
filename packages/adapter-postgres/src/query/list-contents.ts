import type { ContentQuery, ContentRecord } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'
import type { ContentRow } from '../records/contents.ts'
import { toContent } from '../records/contents.ts'
import { tagIdsOfNames } from '../records/tags.ts'
import { listContentsSql } from './list-contents-sql.ts'

/**
 * One page of items as `query` describes (see `Store.listContents`): tag names are resolved to
 * tag ids first (names are unique per tenant; a name that is no tag's makes the page empty), so
 * that every tag filter is one containment test on the item's row.
 */
export async function listContents(sql: Sql, tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
  let resolved = query
  if (query.tagNames !== undefined && query.tagNames.length > 0) {
    const ids = await tagIdsOfNames(sql, tenantId, query.tagNames)
    if (ids === null) return []
    const { tagNames: _names, ...rest } = query
    resolved = { ...rest, tagIds: [...(query.tagIds ?? []), ...ids] }
  }
  const { text, params } = listContentsSql(tenantId, resolved)
  return (await sql.rows<ContentRow>(text, params)).map(toContent)
}

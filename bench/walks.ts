import type { Frontdesk, Principal } from '@frontdesk/core'

/** A walked list: the request path of every page, page 1 first. */
export interface Walk {
  /** Query without the cursor, e.g. `category_code=news` ('' for the default list). */
  query: string
  paths: string[]
}

/**
 * Walks a content list to its end through the use case (no HTTP, no cache) and returns the path
 * of every page: page 1, then `?cursor=` of each `next_cursor`. Cursors survive restarts, so the
 * server accepts them. At most `maxPages` pages.
 */
export async function walkList(frontdesk: Frontdesk, principal: Principal, query: string, maxPages: number): Promise<Walk> {
  const paths: string[] = []
  let cursor: string | null = null
  for (let page = 0; page < maxPages; page++) {
    const params = new URLSearchParams(query)
    if (cursor !== null) params.set('cursor', cursor)
    const text = params.toString()
    paths.push(`/v1/cms/contents${text === '' ? '' : `?${text}`}`)
    const reply = await frontdesk.listContents(principal, params)
    cursor = reply.body.pagination.next_cursor
    if (cursor === null) break
  }
  return { query, paths }
}

import type { Frontdesk, Principal } from '@frontdesk/core'
import { CATEGORY_CODES } from './dataset.ts'

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

/** The lists `list_miss` walks: the default order, each category, and the title order. */
export const WALKED_QUERIES: string[] = ['', ...CATEGORY_CODES.map((code) => `category_code=${code}`), 'sort=title:asc']

/**
 * The query of every page of the lists `list_miss` walks (`WALKED_QUERIES`), each with the
 * cursor that reaches it, for the scripts of `micro/`.
 */
export async function walkedPages(frontdesk: Frontdesk, principal: Principal): Promise<URLSearchParams[]> {
  const pages: URLSearchParams[] = []
  for (const query of WALKED_QUERIES) {
    const walk = await walkList(frontdesk, principal, query, 100_000)
    for (const path of walk.paths) pages.push(new URLSearchParams(path.split('?')[1] ?? ''))
  }
  return pages
}

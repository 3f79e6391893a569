import type { Frontdesk, Principal } from '@frontdesk/core'
import { CATEGORY_CODES } from '../../../bench/dataset.ts'

/**
 * The query of every page of the lists the benchmark's `list_miss` rotates (the default order,
 * each category, title order), each with the cursor that reaches it, for the timing scripts.
 */
export async function walkedPages(frontdesk: Frontdesk, principal: Principal): Promise<URLSearchParams[]> {
  const pages: URLSearchParams[] = []
  for (const query of ['', ...CATEGORY_CODES.map((code) => `category_code=${code}`), 'sort=title:asc']) {
    let cursor: string | null = null
    for (let page = 0; page < 100_000; page++) {
      const params = new URLSearchParams(query)
      if (cursor !== null) params.set('cursor', cursor)
      pages.push(params)
      cursor = (await frontdesk.listContents(principal, params)).body.pagination.next_cursor
      if (cursor === null) break
    }
  }
  return pages
}

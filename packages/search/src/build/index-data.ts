import type { SearchDocument } from '@frontdesk/core'
import type { InvertedIndexData } from '../matching/inverted-index.ts'
import type { RangePieces, RangePostings } from './range-indexer.ts'

/**
 * A tenant's items analysed by one `RangeIndexer` (documents numbered from 0), as the data an
 * `InvertedIndex` is restored from: what a bulk build and an import's indexing hand to
 * `TenantSearchIndex`, and what a snapshot holds.
 */
export function indexDataOf<R extends RangePostings | RangePieces>(range: R): { data: InvertedIndexData; postings: R['postings']; docs: SearchDocument[] } {
  const cjk: number[] = []
  for (let id = 0; id < range.terms.length; id++) if (range.cjk[id] === 1) cjk.push(id)
  return {
    data: { terms: range.terms, cjk, used: Array.from(range.used), fieldTotals: [...range.fieldTotals], fieldDocs: range.documents },
    postings: range.postings,
    docs: range.docs,
  }
}

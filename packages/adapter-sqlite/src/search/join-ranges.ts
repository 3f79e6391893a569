import type { SearchDocument } from '@frontdesk/core'
import type { InvertedIndexData } from './inverted-index.ts'
import type { RangePostings } from './range-indexer.ts'

/**
 * The index of consecutive ranges (see `RangeIndexer`), as one: terms numbered in the order
 * they first occur across the ranges, each term's postings range after range (documents stay
 * in order). The result is what a snapshot holds, and restores as one.
 */
export function joinRanges(ranges: readonly RangePostings[], fieldTotals: readonly number[]): { data: InvertedIndexData; postings: Uint32Array; docs: SearchDocument[] } {
  const first = ranges[0]
  if (ranges.length === 1 && first !== undefined) {
    const cjk: number[] = []
    for (let id = 0; id < first.terms.length; id++) if (first.cjk[id] === 1) cjk.push(id)
    return { data: { terms: first.terms, cjk, used: Array.from(first.used), fieldTotals: [...fieldTotals], fieldDocs: first.docs.length }, postings: first.postings, docs: first.docs }
  }
  const ids = new Map<string, number>()
  const terms: string[] = []
  const cjk: number[] = []
  const used: number[] = []
  // Per range, its term numbers → the joined ones.
  const mapped = ranges.map((range) => {
    const to = new Int32Array(range.terms.length)
    for (let local = 0; local < range.terms.length; local++) {
      const term = range.terms[local] ?? ''
      let id = ids.get(term)
      if (id === undefined) {
        id = terms.length
        ids.set(term, id)
        terms.push(term)
        used.push(0)
        if (range.cjk[local] === 1) cjk.push(id)
      }
      to[local] = id
      used[id] = (used[id] ?? 0) + (range.used[local] ?? 0)
    }
    return to
  })
  const starts = new Int32Array(terms.length)
  let total = 0
  for (let id = 0; id < terms.length; id++) {
    starts[id] = total
    total += used[id] ?? 0
  }
  const postings = new Uint32Array(total)
  ranges.forEach((range, r) => {
    const to = mapped[r] ?? new Int32Array(0)
    let from = 0
    for (let local = 0; local < range.terms.length; local++) {
      const n = range.used[local] ?? 0
      const id = to[local] ?? 0
      const at = starts[id] ?? 0
      postings.set(range.postings.subarray(from, from + n), at)
      starts[id] = at + n
      from += n
    }
  })
  const docs: SearchDocument[] = []
  for (const range of ranges) for (const doc of range.docs) docs.push(doc)
  return { data: { terms, cjk, used, fieldTotals: [...fieldTotals], fieldDocs: docs.length }, postings, docs }
}

/** How many records of one kind an import created, changed or found already as given. */
export interface KindCounts {
  created: number
  updated: number
  unchanged: number
}

/** What an import did (or, with `dry_run`, would have done). */
export interface ImportSummary {
  dry_run: boolean
  /** Records read. */
  records: number
  categories: KindCounts
  /** Includes tags created because a content record named them. */
  tags: KindCounts
  contents: KindCounts
  inquiry_categories: KindCounts
  /** The tenant's set of synonyms, counted as one record (at most one a file). */
  synonyms: KindCounts
}

/** A summary with every count at zero. */
export function emptySummary(dryRun: boolean): ImportSummary {
  const zero = (): KindCounts => ({ created: 0, updated: 0, unchanged: 0 })
  return { dry_run: dryRun, records: 0, categories: zero(), tags: zero(), contents: zero(), inquiry_categories: zero(), synonyms: zero() }
}

/**
 * The kinds of match of a query word, best first (README "Ordering"): as typed (after the
 * analyzer's folding; a CJK run is always this), one of the tenant's synonyms of it matched
 * whole, another form of its English stem, one typo, a longer word it begins (a synonym found
 * only as the beginning of a longer word counts as this). A word matched several ways in an
 * item counts by its best one.
 */
export const MATCH_KINDS = ['exact', 'synonym', 'stem', 'typo', 'prefix'] as const

/** A kind of match (`MATCH_KINDS`). */
export type MatchKind = (typeof MATCH_KINDS)[number]

/** The code of each kind: its place in `MATCH_KINDS`, 0 the best (engines keep codes in typed arrays). */
export const MATCH_KIND = { exact: 0, synonym: 1, stem: 2, typo: 3, prefix: 4 } as const

/**
 * A query word's relevance in an item (BM25+ over the fields with their weights, or whatever an
 * engine measures, never negative) counts up to this much: a word's relevance stays below one
 * unit of its kind of match, so it can never outweigh a better kind of match of another word.
 * BM25+ relevance stays far below it (IDF ≤ ~17 times a posting's weight ≤ ~40, a few prefixes
 * added up), so in practice nothing is cut.
 */
export const RELEVANCE_CAP = 2047

/** How the words of one query add up to a rank score (see `rankScale`). */
export interface RankScale {
  /** What a matched word adds for its kind of match, by kind code. */
  readonly bases: Float64Array
  /** What a word's relevance (at most `RELEVANCE_CAP`) is multiplied by. */
  readonly share: number
}

/**
 * The rank score of a query of `termCount` words, the one order of relevance search (README
 * "Ordering"), as a sum over the words an item matches, each adding `bases[kind]` +
 * `share` × its relevance (at most `RELEVANCE_CAP`), with `bases` the powers of B = `termCount` + 1
 * (exact B⁴, synonym B³, stem B², typo B, prefix 1) and `share` 1 / (`termCount` × 2048):
 * - the integer part (`matchRank`) counts the words by kind in base B: no count reaches B, so
 *   items compare by how many words matched as typed, then by synonym, by stem, by typo, by
 *   prefix (more first, each count deciding only when those before it are equal);
 * - the fraction, the words' relevance summed and scaled below 1, orders items matched alike
 *   as the relevance does: a title counting more than a body, a rarer word more than a common
 *   one (its IDF).
 * Items of equal scores come newest first (`searchComparator`). An engine sums the terms in any
 * order: the integer part stays exact (a sum of integers far below 2⁵³).
 */
export function rankScale(termCount: number): RankScale {
  const n = Math.max(1, termCount)
  const base = n + 1
  return { bases: Float64Array.from(MATCH_KINDS, (_, code) => base ** (MATCH_KINDS.length - 1 - code)), share: 1 / (n * (RELEVANCE_CAP + 1)) }
}

/** What one matched word adds to the rank score: its kind's base and its share of relevance (see `rankScale`). */
export function termRank(scale: RankScale, kind: number, relevance: number): number {
  return (scale.bases[kind] ?? 0) + scale.share * cappedRelevance(relevance)
}

/** A word's relevance as it counts: at most `RELEVANCE_CAP`. */
export function cappedRelevance(relevance: number): number {
  return relevance < RELEVANCE_CAP ? relevance : RELEVANCE_CAP
}

/** The kinds part of a rank score (see `rankScale`): equal for items whose words matched alike, larger for better kinds. */
export function matchRank(score: number): number {
  return Math.floor(score)
}

/** How many words of a query of `termCount` words a rank score counts of each kind, by kind code (for messages). */
export function kindCounts(score: number, termCount: number): number[] {
  const base = Math.max(1, termCount) + 1
  let rank = matchRank(score)
  const counts = MATCH_KINDS.map(() => 0)
  for (let code = MATCH_KINDS.length - 1; code >= 0; code--) {
    counts[code] = rank % base
    rank = Math.floor(rank / base)
  }
  return counts
}

/**
 * How many longer words a query word of one character (`a`, `s`, `あ`, `日`) matches as a
 * prefix, at most (README "Search"): the ones the most items hold. A letter begins hundreds of
 * the vocabulary's words (thousands in real text), held together by most items: at 100,000
 * items `s` began 433 words of 796,000 postings, every one of which its first search merged;
 * its 8 hold 206,000. The few most common are what a visitor typing one letter can mean, at
 * the cost of a common word. The word itself, and for a one-character part of a compound (`e`
 * of `e-mail`) its joined form, match as always.
 */
export const SHORT_PREFIX_WORDS = 8

/**
 * How many one-character words and CJK runs of a query (outside quotes) match as short
 * prefixes (`SHORT_PREFIX_WORDS`); the ones after them match themselves only (`a b c … z` would
 * otherwise read the postings of 26 × 8 common words).
 */
export const MAX_SHORT_PREFIXES = 2

/**
 * Whether the character of a one-character CJK run is a kanji (Han): one is a word of its own
 * (`春`, `駅`), and a reader expects every item holding it, so it matches every bigram it
 * begins, not only `SHORT_PREFIX_WORDS` of them (as one of a query's first
 * `MAX_SHORT_PREFIXES` one-character words; later ones match themselves only). A lone kana (`の`,
 * `は`: particles) or Latin letter stays a short prefix. Its cost is bounded by how often the
 * character occurs: at 100,000 items `春` read the bigrams of 21,887 items instead of 11,134.
 */
export function isWordCharacter(text: string): boolean {
  return isShortPrefix(text) && HAN.test(text)
}

const HAN = /^\p{Script=Han}/u

/** Whether a query word, or the character of a one-character CJK run, is matched as a short prefix (see `SHORT_PREFIX_WORDS`): one character. */
export function isShortPrefix(text: string): boolean {
  const first = text.codePointAt(0)
  return first !== undefined && text.length === (first > 0xffff ? 2 : 1)
}

/**
 * The words a short prefix matches as a prefix (see `SHORT_PREFIX_WORDS`): of `words` (terms
 * of one vocabulary, words or CJK terms, each beginning with the prefix and longer than it,
 * with the number of items holding it), the `limit` held by the most items (at least one),
 * ties going to the shorter word, then to the first in code-unit order. In linear time, the
 * words being read once (a letter may begin many thousands).
 */
export function shortPrefixWords(words: Iterable<readonly [word: string, items: number]>, limit = SHORT_PREFIX_WORDS): string[] {
  const kept: (readonly [string, number])[] = []
  for (const entry of words) {
    if (entry[1] <= 0) continue
    if (kept.length === limit) {
      const last = kept[limit - 1]
      if (last === undefined || !before(entry, last)) continue
      kept.pop()
    }
    let at = kept.length
    while (at > 0 && before(entry, kept[at - 1] ?? entry)) at--
    kept.splice(at, 0, entry)
  }
  return kept.map(([word]) => word)
}

/** Whether `a` comes before `b` in `shortPrefixWords`' order. */
function before(a: readonly [string, number], b: readonly [string, number]): boolean {
  if (a[1] !== b[1]) return a[1] > b[1]
  if (a[0].length !== b[0].length) return a[0].length < b[0].length
  return a[0] < b[0]
}

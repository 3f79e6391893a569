import type { Token } from './analyzer.ts'
import { tokenize } from './analyzer.ts'

/**
 * One term of a search query (CONTRACT §5). Every term must match (AND).
 * - `word`: a term outside the CJK scripts; matches index terms it is a prefix of, and with
 *   `fuzzy` 1 also terms one typo away from it (see `withinOneEdit`: one character inserted,
 *   deleted or substituted, or two adjacent ones swapped).
 * - `cjk`: a run of CJK characters; matches when every one of its `grams` (bigrams, or the one
 *   character of a one-character run, matched as a prefix) is in the item: a phrase-like match.
 */
export type QueryTerm =
  | { kind: 'word'; term: string; fuzzy: 0 | 1 }
  | { kind: 'cjk'; text: string; grams: string[]; prefix: boolean }

/** A word needs this many letters before one typo is tolerated. */
export const FUZZY_MIN_LETTERS = 5

/** The terms of a query, each once, in order. Empty when it holds no word (only punctuation). */
export function parseQueryTerms(query: string): QueryTerm[] {
  const terms: QueryTerm[] = []
  const seen = new Set<string>()
  const add = (key: string, term: QueryTerm): void => {
    if (seen.has(key)) return
    seen.add(key)
    terms.push(term)
  }
  for (const run of runs(tokenize(query))) {
    const first = run[0]
    if (first === undefined) continue
    if (!first.cjk) {
      add(`w:${first.term}`, { kind: 'word', term: first.term, fuzzy: isFuzzy(first.term) ? 1 : 0 })
      continue
    }
    // A run of n ≥ 2 characters yields n-1 bigrams then its last character: keep the bigrams.
    const grams = run.length === 1 ? [first.term] : run.slice(0, -1).map((token) => token.term)
    const text = grams.map((gram) => firstChar(gram)).join('') + (run.length === 1 ? '' : (run[run.length - 1]?.term ?? ''))
    add(`c:${text}`, { kind: 'cjk', text, grams, prefix: run.length === 1 })
  }
  return terms
}

/** Whether an index term matches a `word` query term: as a prefix, or within one typo when fuzzy. */
export function wordMatches(term: Extract<QueryTerm, { kind: 'word' }>, indexTerm: string): boolean {
  return indexTerm.startsWith(term.term) || (term.fuzzy > 0 && withinOneEdit(term.term, indexTerm))
}

/**
 * Whether `a` and `b` are at most one typo apart, counted in characters (code points): one
 * insertion, deletion or substitution, or two adjacent characters swapped (`auorra` for
 * `aurora`: one slip of the fingers, as Meilisearch and Typesense count it).
 */
export function withinOneEdit(a: string, b: string): boolean {
  // One edit changes the length by at most one code point, two UTF-16 code units.
  if (Math.abs(a.length - b.length) > 2) return false
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return withinOneUnitEdit(a, b)
  return oneEditApart([...a], [...b])
}

const SURROGATE = /[\ud800-\udfff]/

/** `withinOneEdit` for text without surrogate pairs (a code unit is a character): no arrays. */
function withinOneUnitEdit(a: string, b: string): boolean {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a]
  if (long.length - short.length > 1) return false
  let i = 0
  while (i < short.length && long.charCodeAt(i) === short.charCodeAt(i)) i++
  if (i === short.length) return true
  if (long.length === short.length) {
    // A substitution at i: the rest is equal…
    let k = i + 1
    while (k < long.length && long.charCodeAt(k) === short.charCodeAt(k)) k++
    if (k === long.length) return true
    // …or the characters at i and i + 1 swapped.
    if (long.charCodeAt(i) !== short.charCodeAt(i + 1) || long.charCodeAt(i + 1) !== short.charCodeAt(i)) return false
    for (k = i + 2; k < long.length; k++) if (long.charCodeAt(k) !== short.charCodeAt(k)) return false
    return true
  }
  // An insertion into the shorter one at i.
  for (let k = i + 1; k < long.length; k++) if (long.charCodeAt(k) !== short.charCodeAt(k - 1)) return false
  return true
}

/** `withinOneEdit` over arrays of characters. */
function oneEditApart(x: string[], y: string[]): boolean {
  const [long, short] = x.length >= y.length ? [x, y] : [y, x]
  if (long.length - short.length > 1) return false
  let i = 0
  while (i < short.length && long[i] === short[i]) i++
  if (i === short.length) return true
  const rest = (from: number, shift: number): boolean => {
    for (let k = from; k < long.length; k++) if (long[k] !== short[k - shift]) return false
    return true
  }
  if (long.length > short.length) return rest(i + 1, 1)
  return rest(i + 1, 0) || (long[i] === short[i + 1] && long[i + 1] === short[i] && rest(i + 2, 0))
}

/** Groups tokens into runs: a word token alone, or the overlapping tokens of one CJK run. */
function runs(tokens: Token[]): Token[][] {
  const result: Token[][] = []
  let current: Token[] | null = null
  for (const token of tokens) {
    const last = current?.[current.length - 1]
    if (token.cjk && current !== null && last !== undefined && last.cjk && token.start < last.end) current.push(token)
    else {
      current = [token]
      result.push(current)
    }
  }
  return result
}

function isFuzzy(term: string): boolean {
  if (/\p{N}/u.test(term)) return false
  return (term.match(/\p{L}/gu)?.length ?? 0) >= FUZZY_MIN_LETTERS
}

function firstChar(text: string): string {
  return String.fromCodePoint(text.codePointAt(0) ?? 0)
}

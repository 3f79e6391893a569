import type { Token } from './analyzer.ts'
import { tokenize } from './analyzer.ts'

/**
 * One term of a search query (CONTRACT §5). Every term must match (AND).
 * - `word`: a term outside the CJK scripts; matches index terms it is a prefix of, and with
 *   `fuzzy` 1 also terms one edit (insert, delete, substitute) away from it.
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

/** Whether `a` and `b` are at most one insertion, deletion or substitution apart. */
export function withinOneEdit(a: string, b: string): boolean {
  // One edit changes the length by at most one code point, two UTF-16 code units.
  if (Math.abs(a.length - b.length) > 2) return false
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return withinOneUnitEdit(a, b)
  const x = [...a]
  const y = [...b]
  if (Math.abs(x.length - y.length) > 1) return false
  let i = 0
  while (i < x.length && i < y.length && x[i] === y[i]) i++
  if (x.length === y.length) return x.slice(i + 1).join('') === y.slice(i + 1).join('')
  return x.length > y.length ? x.slice(i + 1).join('') === y.slice(i).join('') : x.slice(i).join('') === y.slice(i + 1).join('')
}

const SURROGATE = /[\ud800-\udfff]/

/** `withinOneEdit` for text without surrogate pairs (a code unit is a character): no arrays. */
function withinOneUnitEdit(a: string, b: string): boolean {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a]
  if (long.length - short.length > 1) return false
  let i = 0
  while (i < short.length && long.charCodeAt(i) === short.charCodeAt(i)) i++
  if (i === short.length) return true
  // Same length: substitute at i; else: insert into the shorter one at i.
  const skip = long.length === short.length ? 1 : 0
  for (let k = i + 1; k < long.length; k++) if (long.charCodeAt(k) !== short.charCodeAt(k - 1 + skip)) return false
  return true
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

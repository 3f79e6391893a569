import { stem as porter2 } from 'porter2'
import type { Token } from './analyzer.ts'
import { isCompoundVariant, mayEndCompoundWord, tokenize } from './analyzer.ts'
import { MATCH_KIND } from './match-rank.ts'
import type { Phrase } from './phrase.ts'
import { phraseUnits, quotedSpans } from './phrase.ts'
import { isShortPrefix, isWordCharacter, MAX_SHORT_PREFIXES, SHORT_PREFIX_WORDS } from './short-prefix.ts'

/**
 * One term of a search query (README "Search"). Every term must match (AND).
 * - `word`: a term outside the CJK scripts; matches index terms it is a prefix of, with
 *   `fuzzy` 1 also terms one typo away from it (see `withinOneEdit`: one character inserted,
 *   deleted or substituted, or two adjacent ones swapped), with a `stem` the English words of
 *   that stem (see `stemMatches`), and with `joined` (the word is part of a compound such as
 *   `covid-19`, see the analyzer's `joinedForm`) the terms that compound's joined form is a
 *   prefix of: `covid-19` finds `covid19`, and `covid19` finds `COVID-19` (indexed joined too).
 * - `cjk`: a run of CJK characters; matches when every one of its `grams` (bigrams, or the one
 *   character of a one-character run, matched as a prefix) is in the item: a phrase-like match.
 *
 * `synonyms` (the tenant's synonyms of the term, see `synonyms.ts`): alternatives the term may
 * match instead, each a list of terms an item must all match, as typed but with neither typos
 * nor other word forms (`fuzzy` 0, no `stem`), weighted `MATCH_WEIGHTS.synonym` times their
 * own weights. Absent or empty: none. Synonym terms have no synonyms of their own (one step).
 *
 * `prefixWords` (a word or CJK run of one character typed outside quotes, see `short-prefix.ts`):
 * the longer words (CJK terms) it matches as a prefix are only the `prefixWords` of them that
 * the most items hold (core's `shortPrefixWords`; 0: none, it matches itself only). Absent:
 * every one.
 */
export type QueryTerm =
  | { kind: 'word'; term: string; fuzzy: 0 | 1; stem: string | null; joined: string | null; synonyms?: readonly (readonly QueryTerm[])[]; prefixWords?: number }
  | { kind: 'cjk'; text: string; grams: string[]; prefix: boolean; synonyms?: readonly (readonly QueryTerm[])[]; prefixWords?: number }

/**
 * The most phrases a query holds: each one is checked in every candidate's text, and a query
 * of a hundred one-letter phrases (`"a" "b" …`) would otherwise cost seconds.
 */
export const MAX_PHRASES = 8

/** A word needs this many letters before one typo is tolerated. */
export const FUZZY_MIN_LETTERS = 5

/**
 * How much each kind of match of a query word weighs in its relevance, which orders items only
 * among those whose words matched alike (the kinds themselves rank strictly first: see
 * `rankScale`): the word as typed, one of the tenant's synonyms of it, another form of its stem,
 * one typo, a longer word it begins. Prefix weights shrink a little with the letters added. A
 * synonym's own words are weighed by their kind of match times `synonym` (a synonym found as
 * the beginning of a longer word: `synonym` × its prefix weight).
 */
export const MATCH_WEIGHTS = { exact: 1, synonym: 0.8, stem: 0.6, typo: 0.42, prefix: 0.375 } as const

/** The weight of a prefix match: `key` is `extra` characters longer than what it starts with. */
export function prefixWeight(keyLength: number, extra: number): number {
  return extra === 0 ? MATCH_WEIGHTS.exact : (MATCH_WEIGHTS.prefix * keyLength) / (keyLength + 0.3 * extra)
}

/** The terms of a query, each once, in order, less the excluded ones (see `parseQuery`). Empty when it holds no word (only punctuation). */
export function parseQueryTerms(query: string): QueryTerm[] {
  return parseQuery(query).terms
}

/**
 * A query's terms, its excluded terms and its phrases. `-word` excludes: a word, compound or
 * CJK run right after a `-` that starts the query or follows a space. `"a phrase"`: the text
 * between two quotes (`"`, `＂`, `“`, `”`, paired in order) is also a `Phrase` that items must
 * hold as written (see `hasPhrase`), its words being terms as any others; a quote left alone,
 * quotes around nothing (`""`) or around punctuation only are plain text, as is a `-` anywhere
 * else, alone, or inside quotes. Terms and phrases each once, in order; quotes past the
 * `MAX_PHRASES`th phrase are plain text.
 */
export function parseQuery(query: string): { terms: QueryTerm[]; excluded: QueryTerm[]; phrases: Phrase[] } {
  const spans = quotedSpans(query)
  const { terms, excluded } = collectTerms(query, spans)
  const phrases: Phrase[] = []
  const keys = new Set<string>()
  const quoted = new Set<string>()
  for (const [from, to] of spans) {
    if (phrases.length === MAX_PHRASES) break
    const text = query.slice(from, to)
    const units = phraseUnits(text)
    if (units.length === 0) continue
    const key = units.map((unit) => unit.unit).join(' ')
    if (keys.has(key)) continue
    keys.add(key)
    const quotedTerms = collectTerms(text, [[0, text.length]]).terms
    quotedTerms.forEach((term) => quoted.add(termIdentity(term)))
    phrases.push({ key, units, terms: quotedTerms.map(whole) })
  }
  limitShortPrefixes([...terms, ...excluded], quoted)
  return { terms, excluded, phrases }
}

/**
 * A phrase's term as its candidates must match it: a word whole and as written (a phrase's
 * words match no prefix, stem or typo: an item holding the phrase has each of them as a term of
 * its own), a CJK run as any (its bigrams; one character: as a prefix).
 */
function whole(term: QueryTerm): QueryTerm {
  return term.kind === 'word' ? { kind: 'word', term: term.term, fuzzy: 0, stem: null, joined: null, prefixWords: 0 } : term
}

/**
 * Gives each one-character word and CJK run of `terms` (in order) that no phrase holds (its
 * identity is not in `quoted`) its `prefixWords`: `SHORT_PREFIX_WORDS` for the first
 * `MAX_SHORT_PREFIXES` (a kanji: none, it matches every bigram it begins, see
 * `isWordCharacter`), 0 for the others. A quoted one must be found wherever it stands (a
 * phrase's candidates are the items matching its words).
 */
function limitShortPrefixes(terms: readonly QueryTerm[], quoted: ReadonlySet<string>): void {
  let short = 0
  for (const term of terms) {
    const text = term.kind === 'word' ? term.term : term.prefix ? (term.grams[0] ?? '') : ''
    if (!isShortPrefix(text) || quoted.has(termIdentity(term))) continue
    const limited = short++ >= MAX_SHORT_PREFIXES
    if (term.kind === 'cjk' && isWordCharacter(text)) {
      if (limited) term.prefixWords = 0
    } else term.prefixWords = limited ? 0 : SHORT_PREFIX_WORDS
  }
}

/** What makes two terms of a query one (`collectTerms`' key, its kind and text). */
function termIdentity(term: QueryTerm): string {
  return term.kind === 'word' ? `w:${term.term}:${term.joined ?? ''}` : `c:${term.text}`
}

/** The terms and excluded terms of a query whose quoted stretches are `spans` (nothing in them is excluded). */
function collectTerms(query: string, spans: readonly [number, number][]): { terms: QueryTerm[]; excluded: QueryTerm[] } {
  const terms: QueryTerm[] = []
  const excluded: QueryTerm[] = []
  const seen = new Set<string>()
  let into = terms
  const add = (key: string, term: QueryTerm): boolean => {
    const keyed = `${into === terms ? '+' : '-'}${key}`
    if (seen.has(keyed)) return false
    seen.add(keyed)
    into.push(term)
    return true
  }
  // The words typed alone (no compound, not quoted nor excluded), each once, in order, with where they stand: see `withWordForms`.
  const alone: { term: Extract<QueryTerm, { kind: 'word' }>; start: number; end: number }[] = []
  for (const run of runs(tokenize(spacesApart(query, spans)))) {
    const first = run[0]
    if (first === undefined) continue
    const quoted = spans.some(([from, to]) => from <= first.start && first.start < to)
    into = isExcluded(query, first.start) && !quoted ? excluded : terms
    if (!first.cjk) {
      // A compound's words are followed by its joined form, which spans them (the analyzer's order).
      const joined = run.length > 1 ? (run[run.length - 1]?.term ?? null) : null
      for (const token of joined === null ? run : run.slice(0, -1)) {
        const term: QueryTerm = { kind: 'word', term: token.term, fuzzy: isFuzzy(token.term) ? 1 : 0, stem: stemOf(token.term), joined }
        if (add(`w:${token.term}:${joined ?? ''}`, term) && joined === null && into === terms && !quoted) alone.push({ term, start: token.start, end: token.end })
      }
      continue
    }
    // A run of n ≥ 2 characters yields n-1 bigrams then its last character: keep the bigrams.
    const grams = run.length === 1 ? [first.term] : run.slice(0, -1).map((token) => token.term)
    const text = grams.map((gram) => firstChar(gram)).join('') + (run.length === 1 ? '' : (run[run.length - 1]?.term ?? ''))
    const term: QueryTerm = { kind: 'cjk', text, grams, prefix: run.length === 1 }
    const variants = into === terms && !quoted ? compoundVariants(text) : []
    if (variants.length > 0) term.synonyms = variants.map((variant) => [{ kind: 'cjk', text: variant, grams: bigramsOf(variant), prefix: false }])
    add(`c:${text}`, term)
  }
  withWordForms(query, alone)
  return { terms, excluded }
}

/** The most words typed alone a query gives other forms (`withWordForms`): each is one more term for an engine to look up. */
export const MAX_WORD_FORMS = 8

// A word of letters then digits, or digits then letters (`iphone15`, `15inch`).
const LETTERS_DIGITS = /^(?:\p{L}+\p{Nd}+|\p{Nd}+\p{L}+)$/u

/**
 * Gives the words a visitor typed alone (`words`: no compound, neither quoted nor excluded, in
 * order, with their offsets in `query`) the forms a word written split or joined has elsewhere,
 * as synonym alternatives (ranked as a synonym): a word of letters and digits also as its two
 * parts (`iphone15` finds `iPhone 15`; each matched as typed or as a prefix), and two words with
 * only white space between them, one of them a piece of a word (`isSplitPiece`), also as the
 * two joined, as typed, each of the two (`e mail` finds `email`, `iphone 15` finds `iPhone15`:
 * the item holding the joined word then has both). The first `MAX_WORD_FORMS` words only. Compounds
 * (`covid-19`) have their joined form already.
 */
function withWordForms(query: string, words: readonly { term: Extract<QueryTerm, { kind: 'word' }>; start: number; end: number }[]): void {
  const count = Math.min(words.length, MAX_WORD_FORMS)
  const forms: QueryTerm[][][] = Array.from({ length: count }, () => [])
  for (let i = 0; i < count; i++) {
    const text = words[i]?.term.term ?? ''
    if (LETTERS_DIGITS.test(text)) {
      // Where letters and digits meet: the first digit after letters, or the first letter after digits.
      const at = text.search(/^\p{L}/u.test(text) ? /\p{Nd}/u : /\p{L}/u)
      forms[i]?.push([plainWord(text.slice(0, at)), plainWord(text.slice(at))])
    }
    const word = words[i]
    const next = words[i + 1]
    if (word === undefined || next === undefined || i + 1 >= count || next.start === word.end || query.slice(word.end, next.start).trim() !== '') continue
    if (!isSplitPiece(text) && !isSplitPiece(next.term.term)) continue
    // Hint: the joined form matches itself only: as a prefix, short joined forms (`to in` as `toin`) would read the postings of every word they begin.
    const joined: QueryTerm[] = [{ ...plainWord(text + next.term.term), prefixWords: 0 }]
    forms[i]?.push(joined)
    forms[i + 1]?.push(joined)
  }
  forms.forEach((own, i) => {
    const word = words[i]?.term
    if (word !== undefined && own.length > 0) word.synonyms = [...(word.synonyms ?? []), ...own]
  })
}

/**
 * Whether a word typed apart from its neighbour may be a piece of one word: one character
 * (`e mail`, `x ray`) or digits (`iphone 15`, `windows 11`). Two longer words (`office hours`)
 * are rarely one split in two; and a joined form an item holds makes its two words match as
 * the union of their own items and its, which for words of two letters (`to`, `in`: most
 * items hold them) is a merge of most of the index for every sentence typed.
 */
function isSplitPiece(word: string): boolean {
  return isShortPrefix(word) || /^\p{Nd}+$/u.test(word)
}

/**
 * A word to match as typed or as a prefix: no typo, no other form of its stem. One character
 * (`a` of `a1`) matches itself only: as a prefix it would read the postings of every word it
 * begins, for every such word of a long query (see `SHORT_PREFIX_WORDS`).
 */
function plainWord(text: string): QueryTerm {
  const word: QueryTerm = { kind: 'word', term: text, fuzzy: 0, stem: null, joined: null }
  return isShortPrefix(text) ? { ...word, prefixWords: 0 } : word
}

/**
 * The query with each white space outside `spans` (the quoted stretches) made a tab, which
 * breaks terms as a space does but joins no katakana. The analyzer reads katakana on both sides
 * of a space as one run, so that a document's `ソフトウェア エンジニア` is found by
 * `ソフトウェアエンジニア`; but a visitor typing a space between two katakana words (`モジキログ
 * インタビュー`) means two words, each to be found anywhere in an item (and an item holding them
 * joined holds both). Quoted, they stay one run, found as written. Offsets carry over: every
 * white space is one code unit.
 */
function spacesApart(query: string, spans: readonly [number, number][]): string {
  if (!KATAKANA_BESIDE_SPACE.test(query)) return query
  return query.replace(/\s/gu, (space: string, at: number) => (spans.some(([from, to]) => from <= at && at < to) ? space : '\t'))
}

// Hint: only a space with kana (or `ー`) beside it may join anything.
const KATAKANA_BESIDE_SPACE = /[\p{Script=Katakana}\p{Script=Hiragana}\u30fc]\p{M}*\s|\s[\p{Script=Katakana}\p{Script=Hiragana}]/u

/**
 * The other spelling a CJK run of a query (as `text`: normalised, kana folded) is also matched
 * as (README "Japanese"), when it has one: every long-vowel mark that may end a word of a
 * compound written without a separator (`プライバシーポリシー`, `コンピューターシステム`; see
 * the analyzer's `mayEndCompoundWord`) dropped. A document writing the compound with a
 * separator (`プライバシー・ポリシー`) or its words without their marks
 * (`コンピュータシステム`) has the run without them; one writing some of them has its run
 * indexed also without those (the analyzer's bigrams across such marks): so one spelling
 * covers every mix of marks kept and dropped.
 */
export function compoundVariants(text: string): string[] {
  if (!text.includes('ー') || NOT_PLAIN.test(text)) return []
  let variant = ''
  let from = 0
  for (let at = text.indexOf('ー', 2); at >= 0; at = text.indexOf('ー', at + 1)) {
    if (!mayEndCompoundWord(text.charCodeAt(at - 2), text.charCodeAt(at - 1), text.charCodeAt(at + 1), text.length - at - 1)) continue
    variant += text.slice(from, at)
    from = at + 1
  }
  return from === 0 ? [] : [variant + text.slice(from)]
}

// Hint: a run holding surrogate pairs or combining marks keeps its own bigrams; its variants are not worth their bounds.
const NOT_PLAIN = /[\ud800-\udfff\p{M}]/u

/** The bigrams of a run of plain CJK code units (no surrogates nor marks) of two or more. */
function bigramsOf(text: string): string[] {
  const grams: string[] = []
  for (let k = 0; k + 1 < text.length; k++) grams.push(text.slice(k, k + 2))
  return grams
}

/** Whether the term starting at `start` of the query is excluded: right after a `-` (or `－`) that starts the query or follows a space. */
function isExcluded(query: string, start: number): boolean {
  const minus = query.charAt(start - 1)
  return (minus === '-' || minus === '－') && (start === 1 || /\s/u.test(query.charAt(start - 2)))
}

/**
 * Whether an index term matches a `word` query term: as a prefix, its compound's joined form as
 * a prefix, by stem, or within one typo when fuzzy. `stemOfWord` is `stemOf`, or a memo of it.
 */
export function wordMatches(term: Extract<QueryTerm, { kind: 'word' }>, indexTerm: string, stemOfWord: (word: string) => string | null = stemOf): boolean {
  return (
    indexTerm.startsWith(term.term) ||
    (term.joined !== null && indexTerm.startsWith(term.joined)) ||
    (term.stem !== null && stemMatches(term.stem, indexTerm, stemOfWord)) ||
    (term.fuzzy > 0 && withinOneEdit(term.term, indexTerm))
  )
}

/** The weight of the kind of match of `indexTerm` for a word query term (see `MATCH_WEIGHTS`), the best one when several hold; 0: no match (as `wordMatches`). */
export function wordMatchWeight(term: Extract<QueryTerm, { kind: 'word' }>, indexTerm: string): number {
  let weight = 0
  if (indexTerm.startsWith(term.term)) weight = prefixWeight(indexTerm.length, indexTerm.length - term.term.length)
  if (term.joined !== null && indexTerm.startsWith(term.joined)) weight = Math.max(weight, prefixWeight(indexTerm.length, indexTerm.length - term.joined.length))
  if (weight < MATCH_WEIGHTS.stem && term.stem !== null && stemMatches(term.stem, indexTerm)) weight = MATCH_WEIGHTS.stem
  if (weight < MATCH_WEIGHTS.typo && term.fuzzy > 0 && withinOneEdit(term.term, indexTerm)) weight = MATCH_WEIGHTS.typo
  return weight
}

/**
 * The best kind of match (a `MATCH_KIND` code) of `indexTerm` for a word query term, `null`
 * when it does not match (as `wordMatches`): the word or its compound's joined form as typed,
 * else another form of its stem, else one typo away, else a longer word it (or the joined form)
 * begins — the order of `wordMatchWeight`'s weights.
 */
export function wordMatchKind(term: Extract<QueryTerm, { kind: 'word' }>, indexTerm: string, stemOfWord: (word: string) => string | null = stemOf): number | null {
  if (indexTerm === term.term || indexTerm === term.joined) return MATCH_KIND.exact
  if (term.stem !== null && stemMatches(term.stem, indexTerm, stemOfWord)) return MATCH_KIND.stem
  if (term.fuzzy > 0 && withinOneEdit(term.term, indexTerm)) return MATCH_KIND.typo
  if (indexTerm.startsWith(term.term) || (term.joined !== null && indexTerm.startsWith(term.joined))) return MATCH_KIND.prefix
  return null
}

/** A string naming a term's synonyms (equal strings, equal alternatives); empty when it has none. */
export function synonymsKey(term: QueryTerm): string {
  const synonyms = term.synonyms
  if (synonyms === undefined || synonyms.length === 0) return ''
  return synonyms.map((terms) => terms.map((t) => (t.kind === 'word' ? `w${t.term}\u0003${t.joined ?? ''}` : `c${t.prefix ? 1 : 0}${t.grams.join('\u0003')}`)).join('\u0002')).join('\u0001')
}

const STEMMABLE = /^[a-z]{3,}$/

/**
 * The English stem of a word (Porter2, the Snowball English stemmer: `learning` and `learned`
 * are `learn`, `migrating` and `migration` `migrat`), for words of three or more letters
 * a–z (after the analyzer's folding); else `null`.
 */
export function stemOf(word: string): string | null {
  return STEMMABLE.test(word) ? porter2(word) : null
}

/**
 * What every word of a stem begins with: the stem but its last letter (Porter2 may change that
 * letter: `happy` → `happi`, `hoping` → `hope`), or the whole stem of three letters or fewer.
 * Only words beginning with it match by stem (which leaves out a few irregular forms such as
 * `dying` → `die`), so an engine finds them all among the words with that prefix.
 */
export function stemRoot(stem: string): string {
  return stem.length >= 4 ? stem.slice(0, -1) : stem
}

/** Whether `word` is a form of `stem`: it begins with the stem's root (`stemRoot`) and has that stem (`stemOfWord`: `stemOf`, or a memo of it). */
export function stemMatches(stem: string, word: string, stemOfWord: (word: string) => string | null = stemOf): boolean {
  return word.startsWith(stemRoot(stem)) && stemOfWord(word) === stem
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

/**
 * Groups tokens into runs: a word token alone, the words of a compound followed by its joined
 * form (which spans them all: it starts where the first starts), or the overlapping tokens of
 * one CJK run.
 */
function runs(all: Token[]): Token[][] {
  // The parts the analyzer adds after a word joined by `.` or `_` are not words of the query: the word and its joined form are.
  // Nor are the bigrams a document's run is also indexed as across a compound's long-vowel mark: the query's own variants are `compoundVariants`.
  const tokens = all.filter((token, i) => (token.cjk ? !isCompoundVariant(all, i) : !isPartOf(all, i)))
  const result: Token[][] = []
  let current: Token[] | null = null
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]
    if (token === undefined) continue
    if (!token.cjk) {
      current = null
      // A compound's words stand one joiner apart.
      let k = t + 1
      for (let next = tokens[k]; next !== undefined && !next.cjk && next.start !== token.start && next.start === (tokens[k - 1]?.end ?? 0) + 1; next = tokens[++k]);
      const joined = tokens[k]
      if (joined !== undefined && !joined.cjk && joined.start === token.start) {
        result.push(tokens.slice(t, k + 1))
        t = k
      } else result.push([token])
      continue
    }
    const last = current?.[current.length - 1]
    if (current !== null && last !== undefined && token.start < last.end) current.push(token)
    else {
      current = [token]
      result.push(current)
    }
  }
  return result
}

/** Whether the word token at `i` is a part of an earlier word joined by `.` or `_` (it lies inside it and is no joined form). */
function isPartOf(tokens: Token[], i: number): boolean {
  const token = tokens[i]
  if (token === undefined) return false
  // Hint: only the word's other parts stand between it and a part (bounded: a word of more parts just keeps them as query words).
  for (let k = i - 1; k >= 0 && k >= i - 64; k--) {
    const before = tokens[k]
    if (before === undefined || before.cjk) return false
    if (before.start <= token.start && token.end <= before.end && (before.start !== token.start || before.end !== token.end) && /[._]/.test(before.term)) return true
  }
  return false
}

function isFuzzy(term: string): boolean {
  if (/\p{N}/u.test(term)) return false
  return (term.match(/\p{L}/gu)?.length ?? 0) >= FUZZY_MIN_LETTERS
}

function firstChar(text: string): string {
  return String.fromCodePoint(text.codePointAt(0) ?? 0)
}

import type { Token } from './analyzer.ts'
import { foldKanaCode, isTermBreakAt, joinsCompound, normalizedInPlace, tokenize, tokenizeStretch } from './analyzer.ts'
import type { QueryTerm } from './query-terms.ts'
import { stemRoot, wordMatches } from './query-terms.ts'

/** A matched stretch of text: UTF-16 offsets, `end` exclusive. */
export interface Span {
  start: number
  end: number
}

/** Options of `highlightFragments`. */
export interface FragmentOptions {
  /** At most this many fragments. Default 3. */
  max?: number
  /** About this many characters per fragment. Default 100. */
  size?: number
}

// Text is scanned in pieces of about this many characters, and only until enough fragments are found:
// a search result builds fragments for each of its (by default 20) items.
const CHUNK = 600
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text made safe to place in HTML. */
export function escapeHtml(text: string): string {
  // Hint: most text has nothing to escape; testing first skips the replace and its callback.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char) : text
}

const SPECIAL = /[&<>"']/

/**
 * A text to find matches in, with what every search of it needs computed once (on first use):
 * its normalised form, when offsets carry over from it (else `null`: it is tokenized anew per
 * search, grapheme by grapheme). Made by `matchText`; keep one per text to search it often.
 */
export class MatchText {
  readonly text: string
  #normalized: string | null | undefined
  #joined: string | null | undefined

  constructor(text: string) {
    this.text = text
  }

  /** `normalizeTerm(text)` when it keeps every offset (most text), else `null`. */
  get normalized(): string | null {
    if (this.#normalized === undefined) {
      this.#normalized = normalizedInPlace(this.text)
    }
    return this.#normalized
  }

  /** `normalized` without the joiners inside its compounds (`covid-19` → `covid19`), or `null` when it has no compound. */
  get joined(): string | null {
    if (this.#joined === undefined) {
      const normalized = this.normalized
      this.#joined = normalized !== null && hasCompound(normalized) ? normalized.replace(JOINERS, '') : null
    }
    return this.#joined
  }

}

/**
 * Where `terms` match in `text`: every word they match (a whole word, also when matched as a
 * prefix or with a typo), and every contiguous occurrence of a CJK query run; a CJK run whose
 * bigrams occur only apart is shown by its bigrams. Sorted, overlapping spans merged.
 */
export function matchSpans(text: string, terms: readonly QueryTerm[]): Span[] {
  return spansIn(new MatchText(text), terms)
}

/** `matchSpans` of a prepared text. */
export function spansIn(source: MatchText, terms: readonly QueryTerm[]): Span[] {
  const text = source.text
  if (terms.length === 0 || text === '') return []
  const normalized = source.normalized
  const spans: Span[] = []
  let tokens: Token[]
  if (normalized === null) tokens = tokenize(text)
  else {
    // A word may match the joined form of a compound (`covid19` in `COVID-19`): looked for in the text without its joiners.
    const joined = source.joined
    const joinedOnly = joined === null ? [] : terms.filter((term) => term.kind === 'word' && joined.includes(term.term) && !mayOccur(normalized, term))
    // Most texts of a hit hold none of the terms (a word found in the title only): skip them.
    // Hint: only where `tokenize` takes its terms from this very string (it normalises grapheme by grapheme otherwise).
    if (joinedOnly.length === 0 && !terms.some((term) => mayOccur(normalized, term))) return []
    // CJK terms of plain characters are found as substrings; only the others need the text's tokens.
    const tokenized: QueryTerm[] = []
    // Hint: a run joined across katakana separators has bigrams that are no substrings of the text.
    const separated = terms.some((term) => term.kind === 'cjk') && KATAKANA_SEPARATED.test(normalized)
    for (const term of terms) {
      if (term.kind === 'cjk' && !separated && isPlainRun(term)) spans.push(...cjkSpansIn(normalized, term))
      else tokenized.push(term)
    }
    if (tokenized.length === 0) return mergeSpans(withLongVowels(text, spans))
    terms = tokenized
    tokens = tokensAround(normalized, terms, joinedOnly.map((term) => (term.kind === 'word' ? String.fromCodePoint(term.term.codePointAt(0) ?? 0) : '')))
  }
  for (const term of terms) {
    if (term.kind === 'word') {
      for (const token of tokens) if (!token.cjk && wordMatches(term, token.term)) spans.push({ start: token.start, end: token.end })
    } else spans.push(...cjkSpans(tokens, term))
  }
  return mergeSpans(withLongVowels(text, spans))
}

const JOINERS = /[-./_]/g
// The katakana hiragana folds to (`foldKanaCode`).
const KATAKANA_FOLDED = /[\u30a1-\u30f6\u30fd\u30fe]/

/** Whether normalised text holds a compound (`joinsCompound`: a joiner between a letter or digit and another), found by `indexOf` (most text has periods, few compounds). */
function hasCompound(text: string): boolean {
  for (const joiner of '-./_') {
    for (let at = text.indexOf(joiner, 1); at > 0; at = text.indexOf(joiner, at + 1)) if (joinsCompound(text, at, at + 1)) return true
  }
  return false
}

/** Spans ending on kana followed by long-vowel marks take the marks in (the analyzer may drop one there: `プライバシ` marks `プライバシー`). */
function withLongVowels(text: string, spans: Span[]): Span[] {
  for (const span of spans) {
    if (span.end <= span.start || !KANA.test(text.charAt(span.end - 1))) continue
    while (text.charCodeAt(span.end) === 0x30fc || text.charCodeAt(span.end) === 0xff70) span.end++
  }
  return spans
}

const KANA = /^[\p{Script=Hiragana}\p{Script=Katakana}]$/u

/**
 * Whether a CJK term is characters of the BMP without combining marks (its text then is its
 * characters, its grams their pairs), and without a long-vowel mark (which the analyzer drops
 * where it ends a word: the text's characters are then not its terms).
 */
function isPlainRun(term: Extract<QueryTerm, { kind: 'cjk' }>): boolean {
  if (term.text.includes('\u30fc')) return false
  return term.prefix ? term.text.length === 1 && !SURROGATE.test(term.text) : term.grams.every((gram) => gram.length === 2 && !SURROGATE.test(gram))
}

const SURROGATE = /[\ud800-\udfff]/
const KATAKANA_SEPARATED = /[\p{Script=Katakana}\u30fc]\p{M}*[\u30fb=\u30a0 ]+\p{Script=Katakana}/u
const MARK_AT = /\p{M}/uy

/**
 * `cjkSpans` for a plain run (`isPlainRun`) in normalised text that keeps its offsets (its kana
 * compared folded), without tokens: the run's bigrams stand consecutively in one of the text's runs exactly where its
 * characters stand in the text — not followed by a combining mark, which would belong to the
 * last character's bigram. A one-character run marks each of its occurrences and the marks
 * that follow it.
 */
function cjkSpansIn(normalized: string, term: Extract<QueryTerm, { kind: 'cjk' }>): Span[] {
  const spans: Span[] = []
  if (term.prefix) {
    for (let at = indexIn(normalized, term.text, 0, true); at >= 0; at = indexIn(normalized, term.text, at + 1, true)) {
      let end = at + term.text.length
      while (markAt(normalized, end)) end++
      spans.push({ start: at, end })
    }
    return spans
  }
  const occurrences = (needle: string): void => {
    for (let at = indexIn(normalized, needle, 0, true); at >= 0; at = indexIn(normalized, needle, at + 1, true)) {
      if (!markAt(normalized, at + needle.length)) spans.push({ start: at, end: at + needle.length })
    }
  }
  occurrences(term.text)
  if (spans.length === 0) for (const gram of new Set(term.grams)) occurrences(gram)
  return spans
}

/** Whether a combining mark stands at `at` (a character of the BMP: the marks CJK text carries are). */
function markAt(text: string, at: number): boolean {
  if (at >= text.length) return false
  MARK_AT.lastIndex = at
  return MARK_AT.test(text)
}

/**
 * The tokens of `normalized` that any of `terms` may match, in order: those of the stretches
 * between term breaks (see `isTermBreakAt`) that hold a substring every match needs (see
 * `needlesOf`), instead of tokenizing the whole text. A word term then sees every token it
 * matches; a CJK term every bigram of its runs, with the bigrams of one run consecutive as in
 * the whole text (a run lies in one stretch, and ends with a one-character token, which no
 * bigram of a query equals: runs of different stretches never chain).
 */
function tokensAround(normalized: string, terms: readonly QueryTerm[], more: readonly string[] = []): Token[] {
  const starts: number[] = []
  let needles = 0
  for (const term of terms) {
    const kana = term.kind === 'cjk'
    for (const needle of needlesOf(term).around) {
      needles++
      for (let at = indexIn(normalized, needle, 0, kana); at >= 0; at = indexIn(normalized, needle, at + 1, kana)) starts.push(at)
    }
  }
  for (const needle of more) {
    if (needle !== '') {
      needles++
      for (let at = normalized.indexOf(needle); at >= 0; at = normalized.indexOf(needle, at + 1)) starts.push(at)
    }
  }
  // Hint: one needle's places are found in order already.
  if (needles > 1) starts.sort((a, b) => a - b)
  const tokens: Token[] = []
  let done = 0
  for (const at of starts) {
    if (at < done) continue
    // The stretch around `at`, and whether it is only ASCII letters, digits and `_` (lower case here).
    let plain = true
    let from = at
    for (; from > done; from--) {
      if (isTermBreakAt(normalized, from - 1)) break
      plain &&= isPlainWordChar(normalized.charCodeAt(from - 1))
    }
    let to = at
    for (; to < normalized.length; to++) {
      if (isTermBreakAt(normalized, to)) break
      plain &&= isPlainWordChar(normalized.charCodeAt(to))
    }
    // Hint: a plain stretch is one word (as the analyzer's expression reads it).
    if (!plain) tokenizeStretch(normalized, from, to, tokens)
    else tokens.push({ term: normalized.slice(from, to), start: from, end: to, cjk: false, headEnd: to })
    done = to
  }
  return tokens
}

/** `a`-`z` and `0`-`9` (`_` joins a compound, also indexed joined: the analyzer reads it). */
function isPlainWordChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)
}

/** Substrings of normalised text that matches of a term contain (see `needlesOf`). */
interface Needles {
  /** What `mayOccur` looks for. */
  gate: string[]
  /** What `tokensAround` looks for: one of them is in every token the term matches. */
  around: string[]
}

// Hint: per query term object (a search's terms are made once per request and dropped after it).
const NEEDLES = new WeakMap<QueryTerm, Needles>()

/**
 * The substrings every match of `term` contains one of: a word, or also its halves when it
 * tolerates a typo (an edit at or after the middle leaves the first half, one before it the
 * second), its stem's root (every form of the stem begins with it), and the first character of
 * its compound's joined form (a compound's text begins with it, however it is joined); a CJK
 * run's grams, or for a one-character run, its character.
 */
function needlesOf(term: QueryTerm): Needles {
  let needles = NEEDLES.get(term)
  if (needles === undefined) {
    if (term.kind === 'cjk') needles = { gate: term.grams, around: term.prefix ? [term.text] : [...new Set(term.grams)] }
    else {
      const gate = [term.term]
      if (term.fuzzy > 0) {
        const chars = [...term.term]
        const half = Math.floor(chars.length / 2)
        // Hint: an empty half would match everywhere (and never happens: typos need five letters).
        gate.push(chars.slice(0, half).join(''), chars.slice(half + 1).join(''))
      }
      if (term.stem !== null) gate.push(stemRoot(term.stem))
      if (term.joined !== null) gate.push(String.fromCodePoint(term.joined.codePointAt(0) ?? 0))
      needles = { gate, around: [...new Set(gate)].filter((needle) => needle !== '') }
    }
    NEEDLES.set(term, needles)
  }
  return needles
}

/** The whole of `text`, HTML-escaped, with every match wrapped in `<em>…</em>`. */
export function highlightText(text: string, terms: readonly QueryTerm[]): string {
  return highlightIn(new MatchText(text), terms)
}

/** `highlightText` of a prepared text. */
export function highlightIn(source: MatchText, terms: readonly QueryTerm[]): string {
  return markSpans(source.text, spansIn(source, terms), 0, source.text.length)
}

/** Texts to cut fragments from (e.g. summary then body), split into the pieces they are scanned in. */
export class FragmentSource {
  readonly texts: readonly string[]
  readonly pieces: readonly MatchText[]

  constructor(texts: readonly string[]) {
    this.texts = texts
    this.pieces = texts.flatMap((whole) => pieces(whole, CHUNK)).map((piece) => new MatchText(piece))
  }
}

/**
 * Up to `max` fragments of about `size` characters around the matches in `texts` (taken in
 * order, e.g. summary then body), escaped, matches wrapped in `<em>`. When nothing matches, the
 * opening of the first non-empty text, so that a result always has something to show.
 */
export function highlightFragments(texts: readonly string[], terms: readonly QueryTerm[], options: FragmentOptions = {}): string[] {
  return fragmentsIn(new FragmentSource(texts), terms, options)
}

/** `highlightFragments` of prepared texts. */
export function fragmentsIn(source: FragmentSource, terms: readonly QueryTerm[], options: FragmentOptions = {}): string[] {
  const max = options.max ?? 3
  const size = options.size ?? 100
  const fragments: string[] = []
  // Long bodies are scanned piece by piece, and only until enough fragments are found.
  for (const piece of source.pieces) {
    if (fragments.length >= max) break
    const text = piece.text
    const spans = spansIn(piece, terms)
    let next = 0
    while (fragments.length < max && next < spans.length) {
      const first = spans[next]
      if (first === undefined) break
      const window = fragmentWindow(text, first, size)
      // Never cut a match: stretch the window over the last span it reaches into.
      let end = window.end
      while (next < spans.length && (spans[next]?.start ?? Infinity) < end) {
        end = Math.max(end, spans[next]?.end ?? end)
        next++
      }
      fragments.push(markSpans(text, spans, window.start, end).trim())
    }
  }
  if (fragments.length > 0) return fragments
  const first = source.texts.find((text) => text.trim() !== '')
  if (first === undefined) return []
  const window = fragmentWindow(first, { start: 0, end: 0 }, size)
  return [escapeHtml(first.slice(window.start, window.end)).trim()]
}

/** Splits long text into pieces of at most about `size` characters, cut after a space or CJK punctuation where one is near. */
function pieces(text: string, size: number): string[] {
  const result: string[] = []
  let start = 0
  while (text.length - start > size) {
    const limit = start + size
    const tail = text.slice(limit - Math.floor(size / 10), limit)
    const cut = Math.max(tail.search(/[\s。、！？.!?][^\s。、！？.!?]*$/u), -1)
    const end = safeOffset(text, cut >= 0 ? limit - tail.length + cut + 1 : limit)
    result.push(text.slice(start, end))
    start = end
  }
  result.push(text.slice(start))
  return result
}

/** A window of about `size` characters starting a little before `span`, cut at spaces where it can. */
function fragmentWindow(text: string, span: Span, size: number): Span {
  const lead = Math.floor(size / 4)
  let start = Math.max(0, span.start - lead)
  if (start > 0) {
    const space = text.slice(start, span.start).search(/\s/)
    if (space >= 0) start += space + 1
  }
  let end = Math.min(text.length, Math.max(start + size, span.end))
  if (end < text.length) {
    const space = text.slice(span.end, end).search(/\s\S*$/)
    if (space > 0) end = span.end + space
  }
  return { start: safeOffset(text, start), end: safeOffset(text, end) }
}

/** Moves an offset off the middle of a surrogate pair. */
function safeOffset(text: string, offset: number): number {
  const code = text.charCodeAt(offset)
  return offset > 0 && offset < text.length && code >= 0xdc00 && code <= 0xdfff ? offset + 1 : offset
}

function markSpans(text: string, spans: readonly Span[], from: number, to: number): string {
  let out = ''
  let at = from
  for (const span of spans) {
    if (span.end <= from || span.start >= to) continue
    const start = Math.max(span.start, from)
    const end = Math.min(span.end, to)
    out += escapeHtml(text.slice(at, start)) + '<em>' + escapeHtml(text.slice(start, end)) + '</em>'
    at = end
  }
  return out + escapeHtml(text.slice(at, to))
}

/**
 * Whether `term` may match somewhere in `normalized` text (NFKC, lower case), by substrings
 * every match needs: a word's prefix match contains the word; a word one edit away keeps its
 * first or its second half intact (an edit at or after the middle leaves the first half, one
 * before it the second); a CJK run's matches contain one of its grams. `false` is certain.
 */
export function mayOccur(normalized: string, term: QueryTerm): boolean {
  if (term.kind === 'cjk') return needlesOf(term).gate.some((needle) => indexIn(normalized, needle, 0, true) >= 0)
  return needlesOf(term).gate.some((needle) => normalized.includes(needle))
}

/**
 * Where `needle` stands in `text` from `from` on (-1: nowhere); with `kana`, comparing the
 * text's hiragana as katakana (the analyzer's fold: CJK query grams are folded), without
 * making the folded text.
 */
function indexIn(text: string, needle: string, from: number, kana: boolean): number {
  // Hint: a needle without katakana (kanji, Hangul) equals only itself in the text: the native search.
  if (!kana || !KATAKANA_FOLDED.test(needle)) return text.indexOf(needle, from)
  const first = needle.charCodeAt(0)
  // The hiragana the needle's first character may stand for, else itself.
  const hiragana = first === foldKanaCode(first - 0x60) ? first - 0x60 : first
  const last = text.length - needle.length
  for (let at = from; at <= last; at++) {
    const code = text.charCodeAt(at)
    if (code !== first && code !== hiragana) continue
    let k = 1
    while (k < needle.length && foldKanaCode(text.charCodeAt(at + k)) === needle.charCodeAt(k)) k++
    if (k === needle.length) return at
  }
  return -1
}

function cjkSpans(tokens: readonly Token[], term: Extract<QueryTerm, { kind: 'cjk' }>): Span[] {
  const spans: Span[] = []
  if (term.prefix) {
    for (const token of tokens) if (token.cjk && token.term.startsWith(term.text)) spans.push({ start: token.start, end: token.headEnd })
    return spans
  }
  const grams = term.grams
  // Tokens of one run are consecutive: bigram 1, bigram 2, …, then the run's last character.
  const first = grams[0]
  for (let i = 0; i + grams.length <= tokens.length; i++) {
    if (tokens[i]?.term !== first) continue
    if (grams.every((gram, k) => tokens[i + k]?.cjk === true && tokens[i + k]?.term === gram)) {
      spans.push({ start: tokens[i]?.start ?? 0, end: tokens[i + grams.length - 1]?.end ?? 0 })
    }
  }
  if (spans.length > 0) return spans
  const wanted = new Set(grams)
  for (const token of tokens) if (token.cjk && wanted.has(token.term)) spans.push({ start: token.start, end: token.end })
  return spans
}

function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || a.end - b.end)
  const merged: Span[] = []
  for (const span of spans) {
    const last = merged[merged.length - 1]
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end)
    else merged.push({ ...span })
  }
  return merged
}

import type { Token } from './analyzer.ts'
import { isTermBreak, normalizedInPlace, tokenize, tokenizeStretch } from './analyzer.ts'
import type { QueryTerm } from './query-terms.ts'
import { wordMatches } from './query-terms.ts'

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
    // Most texts of a hit hold none of the terms (a word found in the title only): skip them.
    // Hint: only where `tokenize` takes its terms from this very string (it normalises grapheme by grapheme otherwise).
    if (!terms.some((term) => mayOccur(normalized, term))) return []
    // CJK terms of plain characters are found as substrings; only the others need the text's tokens.
    const tokenized: QueryTerm[] = []
    for (const term of terms) {
      if (term.kind === 'cjk' && isPlainRun(term)) spans.push(...cjkSpansIn(normalized, term))
      else tokenized.push(term)
    }
    if (tokenized.length === 0) return mergeSpans(spans)
    terms = tokenized
    tokens = tokensAround(normalized, terms)
  }
  for (const term of terms) {
    if (term.kind === 'word') {
      for (const token of tokens) if (!token.cjk && wordMatches(term, token.term)) spans.push({ start: token.start, end: token.end })
    } else spans.push(...cjkSpans(tokens, term))
  }
  return mergeSpans(spans)
}

/** Whether a CJK term is characters of the BMP without combining marks (its text then is its characters, its grams their pairs). */
function isPlainRun(term: Extract<QueryTerm, { kind: 'cjk' }>): boolean {
  return term.prefix ? term.text.length === 1 && !SURROGATE.test(term.text) : term.grams.every((gram) => gram.length === 2 && !SURROGATE.test(gram))
}

const SURROGATE = /[\ud800-\udfff]/
const MARK_AT = /\p{M}/uy

/**
 * `cjkSpans` for a plain run (`isPlainRun`) in normalised text that keeps its offsets, without
 * tokens: the run's bigrams stand consecutively in one of the text's runs exactly where its
 * characters stand in the text — not followed by a combining mark, which would belong to the
 * last character's bigram. A one-character run marks each of its occurrences and the marks
 * that follow it.
 */
function cjkSpansIn(normalized: string, term: Extract<QueryTerm, { kind: 'cjk' }>): Span[] {
  const spans: Span[] = []
  if (term.prefix) {
    for (let at = normalized.indexOf(term.text); at >= 0; at = normalized.indexOf(term.text, at + 1)) {
      let end = at + term.text.length
      while (markAt(normalized, end)) end++
      spans.push({ start: at, end })
    }
    return spans
  }
  const occurrences = (needle: string): void => {
    for (let at = normalized.indexOf(needle); at >= 0; at = normalized.indexOf(needle, at + 1)) {
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
 * between term breaks (see `isTermBreak`) that hold a substring every match needs (see
 * `needlesOf`), instead of tokenizing the whole text. A word term then sees every token it
 * matches; a CJK term every bigram of its runs, with the bigrams of one run consecutive as in
 * the whole text (a run lies in one stretch, and ends with a one-character token, which no
 * bigram of a query equals: runs of different stretches never chain).
 */
function tokensAround(normalized: string, terms: readonly QueryTerm[]): Token[] {
  const starts: number[] = []
  let needles = 0
  for (const term of terms) {
    for (const needle of needlesOf(term).around) {
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
      const code = normalized.charCodeAt(from - 1)
      if (isTermBreak(code)) break
      plain &&= isPlainWordChar(code)
    }
    let to = at
    for (; to < normalized.length; to++) {
      const code = normalized.charCodeAt(to)
      if (isTermBreak(code)) break
      plain &&= isPlainWordChar(code)
    }
    // Hint: a plain stretch is one word (as the analyzer's expression reads it), or nothing when it is all `_`.
    if (!plain) tokenizeStretch(normalized, from, to, tokens)
    else if (/[^_]/.test(normalized.slice(from, to))) tokens.push({ term: normalized.slice(from, to), start: from, end: to, cjk: false, headEnd: to })
    done = to
  }
  return tokens
}

/** `a`-`z`, `0`-`9` and `_`. */
function isPlainWordChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x5f
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
 * second); a CJK run's grams, or for a one-character run, its character.
 */
function needlesOf(term: QueryTerm): Needles {
  let needles = NEEDLES.get(term)
  if (needles === undefined) {
    if (term.kind === 'cjk') needles = { gate: term.grams, around: term.prefix ? [term.text] : [...new Set(term.grams)] }
    else if (term.fuzzy === 0) needles = { gate: [term.term], around: [term.term] }
    else {
      const chars = [...term.term]
      const half = Math.floor(chars.length / 2)
      const gate = [term.term, chars.slice(0, half).join(''), chars.slice(half + 1).join('')]
      // Hint: an empty half would match everywhere (and never happens: typos need five letters).
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
  return needlesOf(term).gate.some((needle) => normalized.includes(needle))
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

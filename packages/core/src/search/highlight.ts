import type { Token } from './analyzer.ts'
import { FOLDED_KANA, FOLDS_KANA, foldKanaCode, isTermBreak, isTermBreakAt, joinsCompound, normalizedInPlace, tokenize, tokenizeStretch, WORD_JOINER_CLASS, WORD_JOINERS } from './analyzer.ts'
import type { QueryTerm } from './query-terms.ts'
import { stemOf, stemRoot, wordMatches } from './query-terms.ts'

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

// Steps of the scans that may grow with both the text's and the query's length (comparisons of tokens and characters, roughly).
let work = 0

/** The steps counted so far (see `work`): a test holds highlighting to a bound linear in its input. */
export function highlightWork(): number {
  return work
}

/**
 * A text to find matches in, with what every search of it needs computed once (on first use):
 * its normalised form, when offsets carry over from it (else `null`: it is tokenized anew per
 * search, grapheme by grapheme). Made by `matchText`; keep one per text to search it often.
 */
export class MatchText {
  readonly text: string
  #normalized: string | null | undefined
  #joined: string | null | undefined
  #folded: string | undefined
  #separated: boolean | undefined

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

  /** `normalized` (not `null`) with its kana folded (`foldKanaCode`), where CJK query grams (folded too) are looked for. */
  folded(normalized: string): string {
    this.#folded ??= foldKana(normalized)
    return this.#folded
  }

  /** Whether `normalized` (not `null`) holds katakana separated by `・`, `=`, `゠` or spaces (a run the analyzer joins). */
  separated(normalized: string): boolean {
    this.#separated ??= katakanaSeparated(normalized)
    return this.#separated
  }
}

// Hint: `ignoreBOM` keeps a leading U+FEFF (by default the decoder drops it, and every offset after it would shift).
const UTF16 = new TextDecoder('utf-16le', { ignoreBOM: true })
// Whether a `Uint16Array` holds its code units as UTF-16LE (every platform Node runs on but s390x).
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
// Hint: one buffer for every text folded (grown as needed, up to `KEPT_FOLD_BUFFER` code units; a longer text gets one of its own): folding never re-enters.
let foldBuffer = new Uint16Array(1024)
const KEPT_FOLD_BUFFER = 65_536

/** Text with its kana folded (`foldKanaCode`), a code unit at a time (offsets carry over): itself when it has none. */
function foldKana(text: string): string {
  if (!FOLDS_KANA.test(text)) return text
  if (!LITTLE_ENDIAN) return foldKanaByParts(text)
  // Hint: the code units made into one string at once: `+=` at each hiragana (half of a Japanese text) makes a rope of hundreds of parts, slower to build and then to search.
  if (foldBuffer.length < text.length && text.length <= KEPT_FOLD_BUFFER) foldBuffer = new Uint16Array(Math.min(KEPT_FOLD_BUFFER, text.length + (text.length >> 1)))
  const buffer = foldBuffer.length >= text.length ? foldBuffer : new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // Hint: the decoder would replace a lone surrogate: text with surrogates (few) is folded the slower way.
    if ((code & 0xf800) === 0xd800) return foldKanaByParts(text)
    buffer[i] = foldKanaCode(code)
  }
  return UTF16.decode(buffer.subarray(0, text.length))
}

/** `foldKana` of text that may hold lone surrogates (or on a big-endian machine): each hiragana replaced as it comes. */
function foldKanaByParts(text: string): string {
  let out = ''
  let copied = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const folded = foldKanaCode(code)
    if (folded !== code) {
      out += text.slice(copied, i) + String.fromCharCode(folded)
      copied = i + 1
    }
  }
  return out + text.slice(copied)
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
  const plan = planOf(terms)
  const spans: Span[] = []
  let tokens: Token[]
  let tokenized = terms
  if (normalized === null) tokens = tokenize(text)
  else {
    // CJK needles are looked for in the text with its kana folded (as the query's are), words in the text itself.
    const folded = plan.kana ? source.folded(normalized) : normalized
    const absent = plan.words.length === 0 ? NO_WORDS : plan.words.filter((term) => !occursIn(normalized, folded, term))
    // A word may match the joined form of a compound (`covid19` in `COVID-19`, also beside a `covid19` as typed).
    const joined = plan.words.length === 0 ? null : source.joined
    const anchors = joined === null ? NO_ANCHORS : joinedAnchors(normalized, joined, plan.words, absent)
    // Most texts of a hit hold none of the terms (a word found in the title only): skip them.
    // Hint: only where `tokenize` takes its terms from this very string (it normalises grapheme by grapheme otherwise).
    const wordOccurs = absent.length < plan.words.length
    if (anchors.length === 0 && !wordOccurs && !terms.some((term) => term.kind === 'cjk' && occursIn(normalized, folded, term))) return []
    // CJK terms of plain characters are found as substrings; only the others need the text's tokens.
    // Hint: a run joined across katakana separators has bigrams that are no substrings of the text.
    if (plan.plainRuns.length > 0 && !source.separated(normalized)) {
      for (const term of plan.plainRuns) for (const span of cjkSpansIn(folded, term)) spans.push(span)
      tokenized = plan.others
    }
    if (tokenized.length === 0) return mergeSpans(withLongVowels(text, spans))
    tokens = tokensAround(normalized, folded, tokenized, anchors)
  }
  const words = plan.words
  const word = words[0]
  if (words.length === 1 && word !== undefined) {
    for (const token of tokens) if (!token.cjk && wordMatches(word, token.term, plan.stemOf)) spans.push({ start: token.start, end: token.end })
    work += tokens.length
  } else if (words.length > 1) {
    // Hint: each distinct word of the texts tried once against the query's words, and stemmed once (texts repeat their words; a query may hold a hundred).
    const matched = plan.matched
    for (const token of tokens) {
      if (token.cjk) continue
      let matches = matched.get(token.term)
      if (matches === undefined) {
        matches = words.some((term) => wordMatches(term, token.term, plan.stemOf))
        matched.set(token.term, matches)
        work += words.length
      }
      if (matches) spans.push({ start: token.start, end: token.end })
    }
  }
  for (const term of tokenized) if (term.kind === 'cjk') for (const span of cjkSpans(tokens, term)) spans.push(span)
  return mergeSpans(withLongVowels(text, spans))
}

type WordTerm = Extract<QueryTerm, { kind: 'word' }>
type CjkTerm = Extract<QueryTerm, { kind: 'cjk' }>

const NO_WORDS: readonly WordTerm[] = []
const NO_ANCHORS: readonly string[] = []

/**
 * The first characters of the words' needles that occur more often in `joined` (`normalized`
 * without its joiners) than in `normalized`: such an occurrence spans a joiner, so it lies in a
 * compound, whose joined form may match the word though the text never holds the needle as
 * typed. Tokenizing the stretches around those characters finds that form; every other match
 * holds a needle as typed, and is found around it. (Needles hold no joiner: they are parts of
 * query words, which are tokens.)
 */
function joinedAnchors(normalized: string, joined: string, words: readonly WordTerm[], absent: readonly WordTerm[]): readonly string[] {
  const anchors: string[] = []
  for (const term of words) {
    for (const needle of needlesOf(term).gate) {
      const first = String.fromCodePoint(needle.codePointAt(0) ?? 0)
      if (!anchors.includes(first) && countOf(joined, needle) > (absent.includes(term) ? 0 : countOf(normalized, needle))) anchors.push(first)
    }
  }
  return anchors.length === 0 ? NO_ANCHORS : anchors
}

/** How many times `needle` stands in `text`, overlapping places counted. */
function countOf(text: string, needle: string): number {
  let count = 0
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count++
  return count
}

/** What `spansIn` needs to know of a query's terms, found once for all the texts it highlights. */
interface TermsPlan {
  words: WordTerm[]
  /** Whether a CJK term's needles hold katakana (see `Needles`). */
  kana: boolean
  /** The CJK terms found as substrings (`isPlainRun`) where the text has no separated katakana… */
  plainRuns: CjkTerm[]
  /** …and the other terms (every word among them), matched over tokens. */
  others: QueryTerm[]
  /** Whether a text's word matches any of `words`, by the word: texts repeat their words. */
  matched: Map<string, boolean>
  /** `stemOf` of the texts' words, remembered for these terms' texts. */
  stemOf: (word: string) => string | null
}

/** At most this many of the texts' words remembered by a plan (then forgotten: a simple bound). */
const MAX_PLAN_WORDS = 50_000

// Hint: per terms array (a search's terms are made once per request and dropped after it; its items' texts share the plan).
const PLANS = new WeakMap<readonly QueryTerm[], TermsPlan>()

/** The plan of `terms` (see `TermsPlan`). */
function planOf(terms: readonly QueryTerm[]): TermsPlan {
  let plan = PLANS.get(terms)
  if (plan === undefined) {
    const words: WordTerm[] = []
    const plainRuns: CjkTerm[] = []
    const others: QueryTerm[] = []
    let kana = false
    for (const term of terms) {
      if (term.kind === 'word') words.push(term)
      else kana ||= needlesOf(term).kana
      if (term.kind === 'cjk' && isPlainRun(term)) plainRuns.push(term)
      else others.push(term)
    }
    const stems = new Map<string, string | null>()
    const stemOfWord = (word: string): string | null => {
      let stem = stems.get(word)
      if (stem === undefined) {
        stem = stemOf(word)
        if (stems.size >= MAX_PLAN_WORDS) stems.clear()
        stems.set(word, stem)
      }
      return stem
    }
    plan = { words, kana, plainRuns, others, matched: new Map(), stemOf: stemOfWord }
    PLANS.set(terms, plan)
  }
  if (plan.matched.size >= MAX_PLAN_WORDS) plan.matched.clear()
  return plan
}

const JOINERS = new RegExp(WORD_JOINER_CLASS, 'g')

/** Whether normalised text holds a compound (`joinsCompound`: a joiner between a letter or digit and another), found by `indexOf` (most text has periods, few compounds). */
function hasCompound(text: string): boolean {
  for (const joiner of WORD_JOINERS) {
    for (let at = text.indexOf(joiner, 1); at > 0; at = text.indexOf(joiner, at + 1)) if (joinsCompound(text, at, at + 1)) return true
  }
  return false
}

/** Spans ending on kana followed by long-vowel marks take the marks in (the analyzer may drop one there: `プライバシ` marks `プライバシー`). */
function withLongVowels(text: string, spans: Span[]): Span[] {
  // Hint: where the marks after an end stop, found once per end (many spans may end at one place: each would walk the same marks).
  let extended: Map<number, number> | null = null
  for (const span of spans) {
    if (span.end <= span.start || !isLongVowel(text.charCodeAt(span.end)) || !KANA.test(text.charAt(span.end - 1))) continue
    extended ??= new Map()
    let end = extended.get(span.end)
    if (end === undefined) {
      for (end = span.end; isLongVowel(text.charCodeAt(end)); end++);
      work += end - span.end
      extended.set(span.end, end)
    }
    span.end = end
  }
  return spans
}

/** `ー`, or its half-width form. */
function isLongVowel(code: number): boolean {
  return code === 0x30fc || code === 0xff70
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
const SEPARATORS = /[\u30fb=\u30a0 ]+/g
const KATAKANA_OR_LONG_VOWEL = /^[\p{Script=Katakana}\u30fc]$/u
const KATAKANA_CHAR = /^\p{Script=Katakana}$/u
const MARK_CHAR = /^\p{M}$/u

/**
 * Whether text holds katakana (or `ー`), its combining marks, separators (`・`, `=`, `゠`,
 * spaces) and katakana, in this order (as /[\p{Script=Katakana}\u30fc]\p{M}*[・=゠ ]+\p{Script=Katakana}/u
 * finds them, far faster: from each run of separators, most of them spaces between other letters).
 */
function katakanaSeparated(text: string): boolean {
  SEPARATORS.lastIndex = 0
  for (let run = SEPARATORS.exec(text); run !== null; run = SEPARATORS.exec(text)) {
    const after = run.index + run[0].length
    // Hint: katakana are at or above U+30A0 (or surrogates), combining marks at or above U+0300.
    if (after >= text.length || text.charCodeAt(after) < 0x30a0 || run.index === 0 || text.charCodeAt(run.index - 1) < 0x300) continue
    if (!KATAKANA_CHAR.test(String.fromCodePoint(text.codePointAt(after) ?? 0))) continue
    let before = codePointBefore(text, run.index)
    while (before !== null && MARK_CHAR.test(before.char)) before = codePointBefore(text, before.at)
    if (before !== null && KATAKANA_OR_LONG_VOWEL.test(before.char)) return true
  }
  return false
}

/** The character (code point) ending at `end`, and where it starts; `null` at the text's start. */
function codePointBefore(text: string, end: number): { char: string; at: number } | null {
  if (end <= 0) return null
  const low = text.charCodeAt(end - 1)
  const at = low >= 0xdc00 && low <= 0xdfff && end >= 2 && text.charCodeAt(end - 2) >= 0xd800 && text.charCodeAt(end - 2) <= 0xdbff ? end - 2 : end - 1
  return { char: text.slice(at, end), at }
}

const MARK_AT = /\p{M}/uy

/**
 * `cjkSpans` for a plain run (`isPlainRun`) in normalised text that keeps its offsets, its kana
 * folded (`foldKana`, as the query's are), without tokens: the run's bigrams stand consecutively in one of the text's runs exactly where its
 * characters stand in the text — not followed by a combining mark, which would belong to the
 * last character's bigram. A one-character run marks each of its occurrences and the marks
 * that follow it.
 */
function cjkSpansIn(folded: string, term: Extract<QueryTerm, { kind: 'cjk' }>): Span[] {
  const spans: Span[] = []
  const places: number[] = []
  if (term.prefix) {
    occurrencesIn(folded, term.text, places)
    for (const at of places) {
      let end = at + term.text.length
      while (markAt(folded, end)) end++
      spans.push({ start: at, end })
    }
    return spans
  }
  const occurrences = (length: number): void => {
    for (const at of places) if (!markAt(folded, at + length)) spans.push({ start: at, end: at + length })
  }
  occurrencesIn(folded, term.text, places)
  occurrences(term.text.length)
  if (spans.length > 0) return spans
  const { around, pairs } = needlesOf(term)
  // Hint: many grams (all of two code units in a plain run) in one pass.
  if (pairs !== null) {
    places.length = 0
    pairsIn(folded, pairs, places)
    occurrences(2)
  } else {
    for (const gram of around) {
      places.length = 0
      occurrencesIn(folded, gram, places)
      occurrences(gram.length)
    }
  }
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
function tokensAround(normalized: string, folded: string, terms: readonly QueryTerm[], more: readonly string[] = []): Token[] {
  const starts: number[] = []
  let looks = 0
  // Each needle looked for once (words share halves and roots: a query of many words would find the same places again and again).
  const looked: string[] = []
  for (const term of terms) {
    const { around, pairs } = needlesOf(term)
    if (pairs !== null) {
      pairsIn(folded, pairs, starts)
      looks++
      continue
    }
    const kana = term.kind === 'cjk'
    for (const needle of around) {
      const key = kana ? `\u0001${needle}` : needle
      if (looked.includes(key)) continue
      looked.push(key)
      occurrencesIn(kana ? folded : normalized, needle, starts)
      looks++
    }
  }
  for (const needle of more) {
    if (needle === '' || looked.includes(needle)) continue
    looked.push(needle)
    occurrencesIn(normalized, needle, starts)
    looks++
  }
  // Hint: one needle's places are found in order already.
  if (looks > 1) starts.sort((a, b) => a - b)
  const tokens: Token[] = []
  let done = 0
  for (const at of starts) {
    if (at < done) continue
    // The stretch around `at`, and whether it is only ASCII letters, digits and `_` (lower case here).
    let plain = true
    let from = at
    // Hint: most code units are no break of any kind (`isTermBreak`): only the others are looked at in their context.
    for (; from > done; from--) {
      const code = normalized.charCodeAt(from - 1)
      if (isTermBreak(code) && isTermBreakAt(normalized, from - 1)) break
      plain &&= isPlainWordChar(code)
    }
    let to = at
    for (; to < normalized.length; to++) {
      const code = normalized.charCodeAt(to)
      if (isTermBreak(code) && isTermBreakAt(normalized, to)) break
      plain &&= isPlainWordChar(code)
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
  /** A CJK term's many needles of two code units each, as `pairKey`s, looked for in one pass (`pairsIn`), else `null`. */
  pairs: Set<number> | null
  /**
   * Whether they hold kana that other kana fold to (`FOLDED_KANA`): then they are looked for in
   * the text with its kana folded; else in the text as it is (no kana folds to them, and the
   * query's are folded).
   */
  kana: boolean
}

/** More needles than this, all of two code units, are looked for in one pass over the text. */
const FEW_NEEDLES = 8

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
    if (term.kind === 'cjk') {
      const around = term.prefix ? [term.text] : [...new Set(term.grams)]
      // Hint: one look per gram would cost the text's length times the query's (a query of 500 different characters has 499 grams).
      const pairs = around.length > FEW_NEEDLES && around.every((needle) => needle.length === 2) ? new Set(around.map((needle) => pairKey(needle.charCodeAt(0), needle.charCodeAt(1)))) : null
      needles = { gate: [...new Set(term.grams)], around, pairs, kana: FOLDED_KANA.test(term.text) }
    } else {
      const gate = [term.term]
      if (term.fuzzy > 0) {
        const chars = [...term.term]
        const half = Math.floor(chars.length / 2)
        // Hint: an empty half would match everywhere (and never happens: typos need five letters).
        gate.push(chars.slice(0, half).join(''), chars.slice(half + 1).join(''))
      }
      if (term.stem !== null) gate.push(stemRoot(term.stem))
      if (term.joined !== null) gate.push(String.fromCodePoint(term.joined.codePointAt(0) ?? 0))
      // Hint: a needle holding another one finds nothing more (the word itself holds its stem's root, mostly): looked for, it would only cost a pass over the text.
      const distinct = [...new Set(gate)].filter((needle) => needle !== '')
      const around = distinct.filter((needle) => !distinct.some((other) => other !== needle && needle.includes(other)))
      needles = { gate: around, around, pairs: null, kana: false }
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
  return occursIn(normalized, needlesOf(term).kana ? foldKana(normalized) : normalized, term)
}

/** `mayOccur` with the text's kana folded too (`foldKana`). */
function occursIn(normalized: string, folded: string, term: QueryTerm): boolean {
  if (term.kind === 'cjk') {
    const { gate, pairs } = needlesOf(term)
    if (pairs === null) return gate.some((needle) => folded.includes(needle))
    return pairsIn(folded, pairs, null)
  }
  return needlesOf(term).gate.some((needle) => normalized.includes(needle))
}

/** Two code units as one number. */
function pairKey(first: number, second: number): number {
  return first * 0x10000 + second
}

/**
 * Whether one of `pairs` (`pairKey`s of needles of two code units) stands in `text`; with
 * `into`, every place where one does, pushed in order.
 */
function pairsIn(text: string, pairs: ReadonlySet<number>, into: number[] | null): boolean {
  let found = false
  let first = text.charCodeAt(0)
  let at = 1
  for (; at < text.length; at++) {
    const second = text.charCodeAt(at)
    if (pairs.has(pairKey(first, second))) {
      found = true
      if (into === null) break
      into.push(at - 1)
    }
    first = second
  }
  work += at
  return found
}

/** Needles up to this long are looked for again after each place found; longer ones as `occurrencesIn` says. */
const SHORT_NEEDLE = 8

/**
 * Pushes every place `needle` stands in `text` onto `into`, overlapping ones too, in order. A
 * long needle is looked for with `indexOf` again one period after each place found (no place
 * lies between: two places closer than a period would make a shorter one) when that period is
 * at least a quarter of it: the places found are then at most four times the text's length
 * over the needle's, and comparing the needle at each adds up to four passes at most. A needle
 * repeating itself more (`ababab…`, a run of one character) is looked for in one
 * Knuth–Morris–Pratt pass: an `indexOf` from each place found makes a run of one repeated
 * character in both the needle and the text cost their lengths' product.
 */
export function occurrencesIn(text: string, needle: string, into: number[]): void {
  const m = needle.length
  const fallback = m <= SHORT_NEEDLE ? null : failureTable(needle)
  // The needle's smallest period: its length less its longest proper border.
  const period = fallback === null ? 1 : m - (fallback[m - 1] ?? 0)
  if (fallback === null || 4 * period >= m) {
    let found = 0
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + period), found++) into.push(at)
    // Each look goes on from the place found: the text once, and the needle again at each place.
    work += text.length + found * m
    return
  }
  let k = 0
  let steps = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    for (; k > 0 && needle.charCodeAt(k) !== code; steps++) k = fallback[k - 1] ?? 0
    if (needle.charCodeAt(k) === code) k++
    if (k === m) {
      into.push(i - m + 1)
      k = fallback[m - 1] ?? 0
    }
  }
  work += steps + text.length
}

function cjkSpans(tokens: readonly Token[], term: Extract<QueryTerm, { kind: 'cjk' }>): Span[] {
  const spans: Span[] = []
  if (term.prefix) {
    for (const token of tokens) if (token.cjk && token.term.startsWith(term.text)) spans.push({ start: token.start, end: token.headEnd })
    return spans
  }
  // Tokens of one run are consecutive: bigram 1, bigram 2, …, then the run's last character.
  const grams = term.grams
  const m = grams.length
  // Hint: Knuth–Morris–Pratt over the tokens (a word token equals no gram): a run of one repeated bigram in text and query is no n × m.
  const fallback = failureTable(grams)
  let k = 0
  let steps = 0
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    const gram = token?.cjk === true ? token.term : null
    for (; k > 0 && grams[k] !== gram; steps++) k = fallback[k - 1] ?? 0
    if (grams[k] === gram) k++
    if (k === m) {
      spans.push({ start: tokens[i - m + 1]?.start ?? 0, end: token?.end ?? 0 })
      k = fallback[m - 1] ?? 0
    }
  }
  work += steps + tokens.length
  if (spans.length > 0) return spans
  const wanted = new Set(grams)
  for (const token of tokens) if (token.cjk && wanted.has(token.term)) spans.push({ start: token.start, end: token.end })
  return spans
}

/**
 * Knuth–Morris–Pratt's table of `pattern` (items compared with `===`): entry `k` is the length of
 * the longest proper prefix of `pattern[0..k]` that is also its suffix.
 */
function failureTable(pattern: ArrayLike<unknown>): Int32Array {
  const table = new Int32Array(pattern.length)
  let k = 0
  let steps = 0
  for (let i = 1; i < pattern.length; i++) {
    for (; k > 0 && pattern[i] !== pattern[k]; steps++) k = table[k - 1] ?? 0
    if (pattern[i] === pattern[k]) k++
    table[i] = k
  }
  work += steps + pattern.length
  return table
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

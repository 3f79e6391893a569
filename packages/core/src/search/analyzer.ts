/*
 * The text analyzer of full-text search (CONTRACT §5). Indexing and querying both use it, so
 * any engine behind the search port matches the same terms:
 * - text is NFKC-normalised and lower-cased (full-width `ＡＢＣ` is `abc`, half-width `ｶﾞ` is `ガ`),
 *   and Latin, Greek and Cyrillic letters lose their diacritics (`Café` is `cafe`, `Ἀθῆναι` is
 *   `αθηναι`, `ёлка` is `елка`; see `foldDiacritics`), while Japanese kana keep their voicing
 *   marks (`ガ` stays `ガ`: dakuten make another syllable, not an accent on the same one);
 * - a run of CJK characters (Han, Hiragana, Katakana, Hangul; punctuation and spaces end it)
 *   is indexed as its character bigrams, plus its last character alone, so that any word
 *   inside text without spaces is found: `移転` finds `オフィス移転のお知らせ` (bigram `移転`),
 *   and a one-character query finds every occurrence (bigrams starting with it, or the last one);
 * - scripts written without spaces that bigrams do not suit (Thai, Lao, Khmer, Myanmar) are
 *   split into words by `Intl.Segmenter` (ICU's dictionaries);
 * - everything else is split into words by the Unicode word-boundary rules (UAX #29) that
 *   `Intl.Segmenter` applies, written as one regular expression because the segmenter's cost
 *   per segment would make indexing many times slower: letters and digits form a word,
 *   `don't`, `example.com`, `a:b` and `3.14`, `1,000` stay whole, `e-mail` is `e` and `mail`.
 *   A test checks that it splits like `Intl.Segmenter`.
 */

/**
 * Changes whenever `indexTerms` may give different terms for the same text: an engine that
 * keeps an index across restarts rebuilds it then.
 */
export const ANALYZER_VERSION = 2

/** One term of analysed text, with where it came from in the original string. */
export interface Token {
  /** The normalised term, as indexed. */
  term: string
  /** UTF-16 offsets into the original text: `text.slice(start, end)` is what the term came from. */
  start: number
  end: number
  /** Whether the term is a CJK bigram or single character (else a whole word). */
  cjk: boolean
  /** Where the term's first character ends in the original text (highlights one-character matches). */
  headEnd: number
}

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005\u3006\u30f6`
const COMPLEX = String.raw`\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}`
// Hint: the `v` flag (set subtraction) is built at run time; TypeScript's target predates it.
const LETTER = String.raw`[[\p{L}\p{M}\p{Cf}_]--[${CJK}${COMPLEX}]]`
const DIGIT = String.raw`[\p{Nd}--[${COMPLEX}]]`
const WORD_CHAR = `(?:${LETTER}|${DIGIT})`
// A word starts with a letter, digit or `_` (a mark or format character attaches to what precedes it).
const WORD_START = String.raw`[[\p{L}\p{Nd}_]--[${CJK}${COMPLEX}]]`
const LETTER_AHEAD = String.raw`[\p{L}--[${CJK}${COMPLEX}]]`
const LETTER_BEHIND = String.raw`[[\p{L}\p{M}\p{Cf}]--[${CJK}${COMPLEX}]]`
const EXTEND = String.raw`[\p{M}\p{Cf}]*`
// UAX #29 WB6/7 (letter MidLetter letter) and WB11/12 (digit MidNum digit).
const WORD = `${WORD_START}${WORD_CHAR}*(?:(?:(?<=${LETTER_BEHIND})[:.'’·]${EXTEND}(?=${LETTER_AHEAD})|(?<=${DIGIT})[.,;'’]${EXTEND}(?=${DIGIT}))${WORD_CHAR}+)*`
const PIECES = new RegExp(`(?<cjk>(?:[${CJK}]\\p{M}*)+)|(?<complex>[${COMPLEX}]+)|(?<word>${WORD})`, 'gv')
const CJK_CHAR = new RegExp(`^[${CJK}]`, 'v')
const MARK = /^\p{M}/u
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u
// A code unit `mayBeMark` accepts (or a surrogate): a run without any is one character per code unit.
const MAY_HOLD_MARKS = /[^\u3040-\u3098\u309b-\ud7ff\ue000-\ufdff]/

const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' })
const graphemeSegmenter = new Intl.Segmenter('und', { granularity: 'grapheme' })

/** NFKC, lower case and diacritics folded (`foldDiacritics`): the form every term is compared in. */
export function normalizeTerm(text: string): string {
  return foldDiacritics(text.normalize('NFKC').toLowerCase())
}

/**
 * `normalizeTerm(text)` when each of its characters comes from the character at the same
 * offset of `text` (most text: then offsets into it are offsets into `text`), else `null`.
 * NFKC changes lengths (`ｶﾞ` → `ガ`, `ﬁ` → `fi`); lower-casing only `İ`, to `i` and a dot
 * that folding removes again; folding itself only where a mark stands apart from its letter.
 */
export function normalizedInPlace(text: string): string | null {
  const nfkc = text.normalize('NFKC')
  if (nfkc !== text) return null
  const normalized = foldDiacritics(nfkc.toLowerCase())
  return normalized.length === text.length ? normalized : null
}

// Hint: a code unit below U+00C0 or in U+2000…U+FFFF is no Latin, Greek or Cyrillic letter with a diacritic, nor such a mark.
const MAY_FOLD = /[\u00c0-\u1fff]/
const FOLDED_MARK_FIRST = 0x300
const FOLDED_MARK_LAST = 0x36f
const LATIN_GREEK_CYRILLIC = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]$/u
/** Each character that folds, with what it folds to; `''`: a letter of the three scripts that stays as it is. */
const FOLDS = new Map<number, string | null>()

/**
 * Diacritics folded away, as case and width are: a character whose canonical decomposition is
 * a Latin, Greek or Cyrillic letter followed only by combining marks of U+0300–U+036F (the
 * accents, tonos, breve, diaeresis, cedilla… these scripts write) becomes that letter, and such
 * marks standing apart right after such a letter are dropped. So `café`, `cafe` and
 * `cafe\u0301` are one word; so are `й` and `и`, as a search folds them (ICU's folding does
 * too). Marks of other scripts stay: they make other letters, as Japanese dakuten do (`ガ` is
 * not `カ` with an accent but another syllable), as do Devanagari vowel signs and Hebrew
 * points. Letters with a stroke or a ligature (`ø`, `ł`, `æ`, `ß`) have no decomposition and
 * stay as they are.
 */
export function foldDiacritics(text: string): string {
  if (!MAY_FOLD.test(text)) return text
  let out = ''
  let copied = 0
  // Whether the last character kept is a letter of the three scripts (its marks are dropped).
  let afterLetter = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= FOLDED_MARK_FIRST && code <= FOLDED_MARK_LAST) {
      if (afterLetter) {
        out += text.slice(copied, i)
        copied = i + 1
      }
      continue
    }
    if (code < 0xc0) {
      afterLetter = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0xaa || code === 0xba
      continue
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      afterLetter = false
      continue
    }
    const folded = foldOf(code)
    afterLetter = folded !== null
    if (folded !== null && folded !== '') {
      out += text.slice(copied, i) + folded
      copied = i + 1
    }
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/** What the character folds to (see `FOLDS`), `null` when it is no letter of the three scripts. */
function foldOf(code: number): string | null {
  let folded = FOLDS.get(code)
  if (folded === undefined) {
    const char = String.fromCharCode(code)
    const decomposed = char.normalize('NFD')
    const base = decomposed.charAt(0)
    if (!LATIN_GREEK_CYRILLIC.test(base) || !/\p{L}/u.test(base)) folded = null
    else if (decomposed.length > 1 && [...decomposed.slice(1)].every((mark) => mark.charCodeAt(0) >= FOLDED_MARK_FIRST && mark.charCodeAt(0) <= FOLDED_MARK_LAST)) folded = base
    else folded = ''
    FOLDS.set(code, folded)
  }
  return folded
}

/** Whether the (single) character is of a CJK script: runs of them are indexed as bigrams. */
export function isCjkChar(char: string): boolean {
  return CJK_CHAR.test(char)
}

const COMPLEX_CHAR = new RegExp(`^[${COMPLEX}]`, 'v')

/** Whether the (single) character is of a script split into words by `Intl.Segmenter`'s dictionaries (Thai, Lao, Khmer, Myanmar). */
export function isDictionaryScriptChar(char: string): boolean {
  return COMPLEX_CHAR.test(char)
}

/** The terms to index for `text`, in order, repeats kept (term frequency counts). */
export function indexTerms(text: string): string[] {
  const terms: string[] = []
  if (text !== '') analyze(normalizeTerm(text), (term) => void terms.push(term))
  return terms
}

/**
 * Feeds the terms to index for `text` to `sink`, in order, repeats kept, each with whether it
 * is a CJK bigram or character: `indexTerms` without building an array, for engines that
 * index a lot of text.
 */
export function forEachIndexTerm(text: string, sink: (term: string, cjk: boolean) => void, pairSink?: PairSink): void {
  if (text !== '') analyze(normalizeTerm(text), (term, _start, _end, cjk) => sink(term, cjk), pairSink)
}

/**
 * Receives a CJK bigram of two BMP code units, `String.fromCharCode(first, second)`, instead
 * of the string: an engine can look it up by number without making a string per occurrence
 * (most terms of Japanese text are bigrams). Bigrams that carry marks or surrogate pairs still
 * come as strings.
 */
export type PairSink = (first: number, second: number) => void

/** Analyses `text` into tokens with their offsets in `text` (see the file comment for the rules). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  if (text === '') return tokens
  // Most text keeps its length under NFKC, lower-casing and folding: offsets then carry over as they are.
  const normalized = normalizedInPlace(text)
  if (normalized !== null) {
    analyze(normalized, (term, start, end, cjk, headEnd) => void tokens.push({ term, start, end, cjk, headEnd }))
    return tokens
  }
  const mapped = normalizeWithOffsets(text)
  analyze(mapped.text, (term, start, end, cjk, headEnd) => {
    tokens.push({ term, start: mapped.starts[start] ?? 0, end: mapped.ends[end - 1] ?? 0, cjk, headEnd: mapped.ends[headEnd - 1] ?? 0 })
  })
  return tokens
}

/**
 * Whether a code unit is never part of any term: ASCII whitespace, controls and punctuation
 * other than the word-joining `: . ' , ;`, and the CJK comma, full stop and corner brackets.
 * Terms of a text are the terms of its stretches between such characters, analysed apart.
 */
export function isTermBreak(code: number): boolean {
  if (code < 0x80) return code <= 0x20 || (ASCII_BREAK[code] ?? 0) === 1
  return code === 0x3001 || code === 0x3002 || (code >= 0x300c && code <= 0x300f)
}

const ASCII_BREAK = new Uint8Array(128)
for (const char of '!"#$%&()*+-/<=>?@[\\]^`{|}~\u007f') ASCII_BREAK[char.charCodeAt(0)] = 1

/**
 * The tokens of the stretch `[from, to)` of `normalized` (text as `normalizeTerm` returns it,
 * whose offsets are its own), appended to `into`. `from` and `to` must be the text's ends or
 * sit next to an `isTermBreak` character: then these are exactly the tokens `tokenize` finds
 * there, because no term spans a break and the expression is run over the whole string (its
 * look-behinds see what precedes `from`).
 */
export function tokenizeStretch(normalized: string, from: number, to: number, into: Token[]): void {
  STRETCH.lastIndex = from
  analyze(normalized, (term, start, end, cjk, headEnd) => void into.push({ term, start, end, cjk, headEnd }), undefined, to, STRETCH)
}

// Hint: one shared instance for `tokenizeStretch` (called for many small stretches per text); its sink never re-enters.
const STRETCH = new RegExp(PIECES)

/** Receives each term of normalised text with its offsets in it (see `Token`). */
type Sink = (term: string, start: number, end: number, cjk: boolean, headEnd: number) => void

// Hint: a spare instance of PIECES for `analyze`: copying the expression (`new RegExp`) for every short text (a query, a title) would be a needless cost of every search.
let spare: RegExp | null = new RegExp(PIECES)

/** Feeds the terms of normalised text to `sink`, in order (those starting before `to`, scanning from `pieces.lastIndex`). */
function analyze(text: string, sink: Sink, pairSink?: PairSink, to = text.length, pieces?: RegExp): void {
  if (pieces !== undefined) {
    scan(text, sink, pairSink, to, pieces)
    return
  }
  // The spare is taken while in use: a sink that analyses text of its own gets a new instance.
  const own = spare ?? new RegExp(PIECES)
  spare = null
  own.lastIndex = 0
  try {
    scan(text, sink, pairSink, to, own)
  } finally {
    spare = own
  }
}

/** `analyze` with the expression instance to scan with. */
function scan(text: string, sink: Sink, pairSink: PairSink | undefined, to: number, pieces: RegExp): void {
  // Hint: `exec` with numbered groups; `matchAll` and `groups` allocate per match (indexing runs this over every item).
  // Hint: no search past `to` once a term reaches it (it would find, and drop, the next stretch's first term).
  for (let match = pieces.exec(text); match !== null && match.index < to; match = pieces.lastIndex < to ? pieces.exec(text) : null) {
    const start = match.index
    const [, cjk, complex, word] = match
    if (cjk !== undefined) emitCjkRun(cjk, start, sink, pairSink)
    else if (complex !== undefined) {
      for (const segment of wordSegmenter.segment(complex)) {
        if (!segment.isWordLike) continue
        const at = start + segment.index
        sink(segment.segment, at, at + segment.segment.length, false, at + segment.segment.length)
      }
    } else if (word !== undefined && (isAsciiAlphanumeric(word.charCodeAt(0)) || HAS_LETTER_OR_DIGIT.test(word))) {
      sink(word, start, start + word.length, false, start + word.length)
    }
  }
}

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a)
}

/** Bigrams of a CJK run, then its last character; a character keeps its combining marks (e.g. variation selectors). */
function emitCjkRun(run: string, base: number, sink: Sink, pairSink?: PairSink): void {
  if (!MAY_HOLD_MARKS.test(run)) {
    // Every code unit is a character of its own (the usual case): no bounds to work out.
    if (pairSink !== undefined) for (let k = 0; k + 1 < run.length; k++) pairSink(run.charCodeAt(k), run.charCodeAt(k + 1))
    else for (let k = 0; k + 1 < run.length; k++) sink(run.slice(k, k + 2), base + k, base + k + 2, true, base + k + 1)
    sink(run.slice(run.length - 1), base + run.length - 1, base + run.length, true, base + run.length)
    return
  }
  // Start offsets (within `run`) of its characters, and the run's end.
  const bounds: number[] = []
  for (let i = 0; i < run.length; ) {
    const code = run.codePointAt(i) ?? 0
    const length = code > 0xffff ? 2 : 1
    if (bounds.length === 0 || !mayBeMark(code) || !MARK.test(run.slice(i, i + length))) bounds.push(i)
    i += length
  }
  bounds.push(run.length)
  for (let k = 0; k + 2 < bounds.length; k++) {
    const from = bounds[k] ?? 0
    const to = bounds[k + 2] ?? 0
    sink(run.slice(from, to), base + from, base + to, true, base + (bounds[k + 1] ?? 0))
  }
  const last = bounds[bounds.length - 2] ?? 0
  sink(run.slice(last), base + last, base + run.length, true, base + run.length)
}

/** Cheap pre-check: CJK letters (U+3040…U+FDFF but two kana marks) are never combining marks. */
function mayBeMark(code: number): boolean {
  return code < 0x3040 || code === 0x3099 || code === 0x309a || code >= 0xfe00
}

/**
 * Normalises grapheme by grapheme, so that every normalised character maps back to the
 * original characters it came from (NFKC may change lengths: `ｶﾞ` → `ガ`, `ﬁ` → `fi`).
 */
function normalizeWithOffsets(text: string): { text: string; starts: number[]; ends: number[] } {
  let out = ''
  const starts: number[] = []
  const ends: number[] = []
  for (const { segment, index } of graphemeSegmenter.segment(text)) {
    const normalized = normalizeTerm(segment)
    out += normalized
    for (let i = 0; i < normalized.length; i++) {
      starts.push(index)
      ends.push(index + segment.length)
    }
  }
  return { text: out, starts, ends }
}

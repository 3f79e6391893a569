/*
 * The text analyzer of full-text search (README "Search"). Indexing and querying both use it, so
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
 *   A test checks that it splits like `Intl.Segmenter`. Its matches over the usual characters
 *   (letters, ASCII digits, that punctuation, CJK characters, separators) are found by a
 *   hand-written scan instead, ~2.5× faster (`nextPiece`; a test holds the two equal);
 * - letters and digits joined by `-`, `.`, `/`, `_` or `‐` (a compound: `covid-19`, `e-mail`,
 *   `example.com`, `covid_19`) are also indexed joined (`covid19`, `email`, `examplecom`), after
 *   the compound's last word, so that a compound is found however it is written (see `joinedForm`);
 *   a word UAX #29 keeps whole across `.` or `_` is followed by its parts (`example`, `com`);
 * - Japanese spelling variants that are one word to a reader are one term: hiragana folds to
 *   katakana (`ぷらいばしー` is `プライバシー`), a small vowel to its full size (`ウィンドウ` is
 *   `ウインドウ`; `ヵ` and `ヶ` are `カ`); a long-vowel mark `ー` that ends a kana word of
 *   two or more characters is dropped (`コンピューター` is `コンピュータ`, the JIS and 外来語
 *   conventions); `・`, `=` (`＝`), `゠` and spaces between two katakana join them into one run
 *   (`ソフトウェア・エンジニア` is `ソフトウェアエンジニア`). Offsets still point at the text as
 *   written: a bigram may span a dropped mark or a separator.
 */

/**
 * Changes whenever `indexTerms` may give different terms for the same text: an engine that
 * keeps an index across restarts rebuilds it then.
 */
export const ANALYZER_VERSION = 6

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
// Separators a run of katakana goes on across (`・`, `＝` after NFKC, `゠`, spaces): `ソフトウェア・エンジニア` is one run.
const KATAKANA_JOINERS = String.raw`\u30fb=\u30a0 `
const KATAKANA_JOIN = String.raw`(?<=[\p{Script=Katakana}\u30fc]\p{M}*)[${KATAKANA_JOINERS}]+(?=\p{Script=Katakana})`
const PIECES = new RegExp(`(?<cjk>(?:[${CJK}]\\p{M}*)(?:[${CJK}]\\p{M}*|${KATAKANA_JOIN})*)|(?<complex>[${COMPLEX}]+)|(?<word>${WORD})`, 'gv')
const CJK_CHAR = new RegExp(`^[${CJK}]`, 'v')
const MARK = /^\p{M}/u
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u
// A code unit `mayBeMark` accepts (or a surrogate): a run without any is one character per code unit.
const MAY_HOLD_MARKS = /[^\u3040-\u3098\u309b-\ud7ff\ue000-\ufdff]/

// Hint: made on first use: a word segmenter loads ICU's break rules (~10 ms of CPU, more on a
// cold disk), which every process loading the analyzer (any CLI command) would pay, and only
// Thai, Lao, Khmer and Myanmar text needs it; the grapheme one only `tokenize` does.
let wordSegmenter: Intl.Segmenter | null = null
let graphemeSegmenter: Intl.Segmenter | null = null

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

/**
 * `isTermBreak` of the code unit at `at` of normalised text, where a term may also span a
 * separator: a katakana separator between katakana (`ソフトウェア・エンジニア` is one run), a
 * joiner between the words of a compound (`covid-19` is also indexed `covid19`).
 */
export function isTermBreakAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at)
  if (!isTermBreak(code)) return false
  if (isWordJoiner(code)) return !joinsCompound(text, at, at + 1)
  if (code !== 0x20 && code !== 0x3d) return true
  let before = at - 1
  while (before >= 0 && isKatakanaJoiner(text.charCodeAt(before))) before--
  let after = at + 1
  while (after < text.length && isKatakanaJoiner(text.charCodeAt(after))) after++
  if (before < 0 || after >= text.length) return true
  // Hint: katakana (and `ー`) are at or above U+30A0 (or surrogates), combining marks at or above U+0300: most spaces stand between other letters.
  if (text.charCodeAt(before) < 0x300 || text.charCodeAt(after) < 0x30a0) return true
  return !(KATAKANA_BEFORE.test(text.slice(Math.max(0, before - 1), before + 1)) && KATAKANA_AT.test(text.charAt(after)))
}

/** Whether one of `KATAKANA_JOINERS`. */
function isKatakanaJoiner(code: number): boolean {
  return code === 0x30fb || code === 0x3d || code === 0x30a0 || code === 0x20
}

const KATAKANA_AT = /^\p{Script=Katakana}/u
// Hint: a katakana (or long-vowel mark) ending the two code units, a combining mark after it allowed.
const KATAKANA_BEFORE = /[\p{Script=Katakana}\u30fc]\p{M}?$/u

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

/**
 * `analyze` with the expression instance to scan with. Each piece (a word, a CJK run, a run of
 * a dictionary script) is the expression's next match: found by hand (`nextPiece`) where the
 * characters it reads are plain, by the expression otherwise or with `byHand` false.
 */
function scan(text: string, sink: Sink, pairSink: PairSink | undefined, to: number, pieces: RegExp, byHand = true): void {
  // The compound the last word belongs to (see `joinedForm`): where it starts, and where its last word ends.
  let compoundStart = -1
  let compoundEnd = -1
  // Whether it holds a joiner (most words are compounds of one word without any: nothing to join).
  let joiner = false
  // Hint: no search past `to` once a term reaches it (it would find, and drop, the next stretch's first term).
  for (let at = pieces.lastIndex; at < to; ) {
    let kind = byHand ? nextPiece(text, at, to) : ASK_EXPRESSION
    if (kind === NO_PIECE) break
    let start = pieceStart
    let piece: string
    if (kind === ASK_EXPRESSION) {
      // Hint: `exec` with numbered groups; `matchAll` and `groups` allocate per match (indexing runs this over every item).
      pieces.lastIndex = byHand ? pieceStart : at
      const match = pieces.exec(text)
      if (match === null || match.index >= to) break
      start = match.index
      const [, cjk, complex, word] = match
      kind = word !== undefined ? WORD_PIECE : cjk !== undefined ? CJK_PIECE : COMPLEX_PIECE
      piece = word ?? cjk ?? complex ?? ''
      at = pieces.lastIndex
    } else {
      piece = text.slice(start, pieceEnd)
      at = pieceEnd
    }
    if (kind === WORD_PIECE) {
      const word = piece
      if (!(isAsciiAlphanumeric(word.charCodeAt(0)) || HAS_LETTER_OR_DIGIT.test(word))) continue
      if (compoundStart >= 0 && joinsCompound(text, compoundEnd, start)) joiner = true
      else {
        if (joiner) emitJoined(text, compoundStart, compoundEnd, sink)
        compoundStart = start
        joiner = false
      }
      compoundEnd = start + word.length
      sink(word, start, compoundEnd, false, compoundEnd)
      const parts = wordParts(word)
      if (parts !== null) joiner = true
      if (parts !== null) for (const [from, to] of parts) sink(word.slice(from, to), start + from, start + to, false, start + to)
      continue
    }
    if (joiner) emitJoined(text, compoundStart, compoundEnd, sink)
    compoundStart = -1
    joiner = false
    if (kind === CJK_PIECE) emitCjkRun(piece, start, sink, pairSink)
    else {
      for (const segment of (wordSegmenter ??= new Intl.Segmenter('und', { granularity: 'word' })).segment(piece)) {
        if (!segment.isWordLike) continue
        const from = start + segment.index
        sink(segment.segment, from, from + segment.segment.length, false, from + segment.segment.length)
      }
    }
  }
  if (joiner) emitJoined(text, compoundStart, compoundEnd, sink)
}

// What `nextPiece` found: no piece starting before `to`, a CJK run or a word (`pieceStart`, `pieceEnd`), or a piece from `pieceStart` the expression must find.
const NO_PIECE = 0
const CJK_PIECE = 1
const WORD_PIECE = 2
const ASK_EXPRESSION = 3
/** (A piece of a dictionary script: only the expression finds those.) */
const COMPLEX_PIECE = 4
let pieceStart = 0
let pieceEnd = 0

/**
 * Classes of BMP code units as the analyzer's expression places them (`characterClass`), for
 * the hand-written scans that find its matches faster (`nextPiece` here, an engine's bulk
 * build). 0 is no class: a table may keep it for "not worked out yet".
 */
export const CHARACTER_CLASSES = {
  separator: 1,
  letter: 2,
  digit: 3,
  underscore: 4,
  /** Joins letters only (`a:b`, `a·b`). */
  midLetter: 5,
  /** Joins digits only (`1,000`, `1;2`). */
  midNumber: 6,
  /** Joins letters or digits (`don't`, `example.com`, `3.14`). */
  midBoth: 7,
  cjk: 8,
  /** Whatever a scan leaves to the expression: marks, format characters, digits but ASCII ones, dictionary scripts, surrogates. */
  other: 9,
} as const

// Hint: module constants, which the scan's loops read as numbers.
const SEPARATOR_CLASS: number = CHARACTER_CLASSES.separator
const LETTER_CLASS: number = CHARACTER_CLASSES.letter
const DIGIT_CLASS: number = CHARACTER_CLASSES.digit
const UNDERSCORE_CLASS: number = CHARACTER_CLASSES.underscore
const MID_LETTER_CLASS: number = CHARACTER_CLASSES.midLetter
const MID_NUMBER_CLASS: number = CHARACTER_CLASSES.midNumber
const MID_BOTH_CLASS: number = CHARACTER_CLASSES.midBoth
const CJK_CLASS: number = CHARACTER_CLASSES.cjk
const OTHER_CLASS: number = CHARACTER_CLASSES.other
// Each code unit's class for `nextPiece`, worked out on first sight (0: not yet).
const CLASSES = new Uint8Array(0x10000)

function classOf(code: number): number {
  let cls = CLASSES[code] ?? OTHER_CLASS
  if (cls === 0) {
    cls = characterClass(code)
    CLASSES[code] = cls
  }
  return cls
}

/** The class (`CHARACTER_CLASSES`) of a code unit, as the expression's character sets place it. */
export function characterClass(code: number): number {
  if (code >= 0xd800 && code <= 0xdfff) return OTHER_CLASS
  if (code >= 0x30 && code <= 0x39) return DIGIT_CLASS
  if (code === 0x5f) return UNDERSCORE_CLASS
  if (code === 0x3a || code === 0xb7) return MID_LETTER_CLASS
  if (code === 0x2c || code === 0x3b) return MID_NUMBER_CLASS
  if (code === 0x2e || code === 0x27 || code === 0x2019) return MID_BOTH_CLASS
  const char = String.fromCharCode(code)
  if (/[\p{M}\p{Cf}\p{Nd}]/u.test(char) || COMPLEX_CHAR.test(char)) return OTHER_CLASS
  if (CJK_CHAR.test(char)) return CJK_CLASS
  return /\p{L}/u.test(char) ? LETTER_CLASS : SEPARATOR_CLASS
}

/** A word character of the expression (`WORD_CHAR`), marks and format characters aside. */
function isWordClass(cls: number): boolean {
  return cls === LETTER_CLASS || cls === DIGIT_CLASS || cls === UNDERSCORE_CLASS
}

/**
 * The expression's next match in `text` from `at`, found by hand where every character it
 * reads is plain (letters, ASCII digits, `_`, the mid-word punctuation of UAX #29, CJK
 * characters, separators): the kind, its bounds in `pieceStart` and `pieceEnd`. On any other
 * character it reads (a mark may extend a word or a run, another digit join one, a dictionary
 * script start one), `ASK_EXPRESSION` with `pieceStart` where the piece in doubt starts.
 * `NO_PIECE` when none starts before `to`.
 */
function nextPiece(text: string, at: number, to: number): number {
  const n = text.length
  let i = at
  let cls = SEPARATOR_CLASS
  // Separators and mid-word punctuation start no piece.
  for (; i < to; i++) {
    cls = classOf(text.charCodeAt(i))
    if (cls !== SEPARATOR_CLASS && cls !== MID_LETTER_CLASS && cls !== MID_NUMBER_CLASS && cls !== MID_BOTH_CLASS) break
  }
  if (i >= to) return NO_PIECE
  pieceStart = i
  if (cls === OTHER_CLASS) return ASK_EXPRESSION
  let j = i + 1
  if (cls === CJK_CLASS) {
    // The run, going on across katakana separators (`KATAKANA_JOIN`).
    for (;;) {
      while (j < n && classOf(text.charCodeAt(j)) === CJK_CLASS) j++
      if (j === n) break
      if (classOf(text.charCodeAt(j)) === OTHER_CLASS) return ASK_EXPRESSION
      const on = katakanaRunGoesOn(text, j)
      if (on < 0) break
      j = on
    }
    pieceEnd = j
    return CJK_PIECE
  }
  // A word (`WORD`): word characters, on across UAX #29 WB6/7 (letter MidLetter letter) and WB11/12 (digit MidNum digit).
  for (;;) {
    let next = OTHER_CLASS
    while (j < n && isWordClass((next = classOf(text.charCodeAt(j))))) j++
    if (j === n) break
    if (next === OTHER_CLASS) return ASK_EXPRESSION
    if (j + 1 === n || (next !== MID_LETTER_CLASS && next !== MID_NUMBER_CLASS && next !== MID_BOTH_CLASS)) break
    const after = classOf(text.charCodeAt(j + 1))
    if (after === OTHER_CLASS) return ASK_EXPRESSION
    const before = classOf(text.charCodeAt(j - 1))
    const joinsLetters = next !== MID_NUMBER_CLASS && before === LETTER_CLASS && after === LETTER_CLASS
    const joinsDigits = next !== MID_LETTER_CLASS && before === DIGIT_CLASS && after === DIGIT_CLASS
    if (!joinsLetters && !joinsDigits) break
    j += 2
  }
  pieceEnd = j
  return WORD_PIECE
}

let testPieces: RegExp | null = null

/**
 * The tokens of normalised text and the pairs a `PairSink` is given, pieces found by hand
 * where they can be (`byHand`, as the analyzer does) or by the expression alone (for a test
 * of the one against the other).
 */
export function scannedTokens(normalized: string, byHand: boolean): { tokens: Token[]; pairs: number[][] } {
  const tokens: Token[] = []
  const pairs: number[][] = []
  const pieces = (testPieces ??= new RegExp(PIECES))
  pieces.lastIndex = 0
  scan(normalized, (term, start, end, cjk, headEnd) => void tokens.push({ term, start, end, cjk, headEnd }), (first, second) => void pairs.push([first, second]), normalized.length, pieces, byHand)
  pieces.lastIndex = 0
  scan(normalized, (term, start, end, cjk, headEnd) => void tokens.push({ term, start, end, cjk, headEnd }), undefined, normalized.length, pieces, byHand)
  return { tokens, pairs }
}

/** The joined form of the compound `[start, end)` of `text` (see `joinedForm`), when it has one, fed to `sink` after its words. */
function emitJoined(text: string, start: number, end: number, sink: Sink): void {
  const joined = joinedForm(text.slice(start, end))
  if (joined !== null) sink(joined, start, end, false, end)
}

const INNER_JOINER = /[._]/
const PART = /[^._]+/g

/**
 * The parts of a word joined by `.` or `_` (which UAX #29 keeps whole: `example.com`,
 * `covid_19`) as offsets into it, when it has two or more holding a letter or digit; else
 * `null`. The analyzer indexes them after the word: a compound is also found by its words apart.
 */
export function wordParts(word: string): [from: number, to: number][] | null {
  if (!INNER_JOINER.test(word)) return null
  const parts: [number, number][] = []
  for (let match = PART.exec(word); match !== null; match = PART.exec(word)) {
    if (HAS_LETTER_OR_DIGIT.test(match[0])) parts.push([match.index, match.index + match[0].length])
  }
  return parts.length < 2 ? null : parts
}

/**
 * The characters joining the words of a compound: `-`, `.`, `/`, `_`, and the typographic hyphen
 * `‐` (U+2010, which NFKC also makes of the non-breaking one, U+2011) that word processors and
 * CMS editors write for `-` (`COVID‐19` is `covid19` too).
 */
export const WORD_JOINERS = '-./_\u2010'

/** Whether one of `WORD_JOINERS`. */
export function isWordJoiner(code: number): boolean {
  return code === 0x2d || code === 0x2e || code === 0x2f || code === 0x5f || code === 0x2010
}

/**
 * Whether a word starting at `start` continues the compound whose last word ends at `end`: one
 * joiner (`isWordJoiner`) between them, a letter or digit on both sides.
 */
export function joinsCompound(text: string, end: number, start: number): boolean {
  return start === end + 1 && isWordJoiner(text.charCodeAt(end)) && isLetterOrDigitAt(text, end - 1) && isLetterOrDigitAt(text, start)
}

function isLetterOrDigitAt(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return false
  const code = text.charCodeAt(at)
  if (code < 0x80) return isAsciiAlphanumeric(code)
  const from = code >= 0xdc00 && code <= 0xdfff && at > 0 ? at - 1 : at
  return HAS_LETTER_OR_DIGIT.test(String.fromCodePoint(text.codePointAt(from) ?? 0))
}

/** `WORD_JOINERS` as a character class of an expression. */
export const WORD_JOINER_CLASS = `[${WORD_JOINERS.replace('-', '\\-')}]`
const JOINED_AWAY = new RegExp(`(?<=[\\p{L}\\p{N}\\p{M}])${WORD_JOINER_CLASS}+(?=[\\p{L}\\p{N}])`, 'gu')
const MAY_JOIN = new RegExp(WORD_JOINER_CLASS)

/**
 * A compound's joined form (README "Search" as this analyzer extends it): the `WORD_JOINERS`
 * between its letters and digits removed (`covid-19` → `covid19`, `e-mail` → `email`), or
 * `null` when there are none (nothing to index besides its words).
 */
export function joinedForm(compound: string): string | null {
  if (!MAY_JOIN.test(compound)) return null
  const joined = compound.replace(JOINED_AWAY, '')
  return joined === compound ? null : joined
}

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a)
}

/**
 * The terms of one CJK run as `emitCjkRun` gives them (`run` normalised, as the analyzer's
 * expression finds it), for an engine's own faster scan of plain text.
 */
export function forEachCjkRunTerm(run: string, sink: (term: string, cjk: boolean) => void, pairSink: PairSink): void {
  emitCjkRun(run, 0, (term) => sink(term, true), pairSink)
}

/**
 * Where a run of CJK characters ending before `at` of normalised text goes on across katakana
 * separators (`ソフトウェア・エンジニア`): the offset of the katakana after them, else -1.
 */
export function katakanaRunGoesOn(text: string, at: number): number {
  if (at === 0 || !isKatakanaJoiner(text.charCodeAt(at))) return -1
  if (!KATAKANA_BEFORE.test(text.slice(Math.max(0, at - 2), at))) return -1
  let after = at + 1
  while (after < text.length && isKatakanaJoiner(text.charCodeAt(after))) after++
  return after < text.length && KATAKANA_AT.test(text.charAt(after)) ? after : -1
}

/** `text.slice(from, to)` with its hiragana folded to katakana (`foldKanaCode`). */
function foldedSlice(text: string, from: number, to: number): string {
  let out = ''
  for (let i = from; i < to; i++) out += String.fromCharCode(foldKanaCode(text.charCodeAt(i)))
  return out
}

/**
 * Small kana that write the same word as their full-size form (`ウィンドウズ` / `ウインドウズ`,
 * `ソフトウェア` / `ソフトウエア`, `3ヶ月` / `3ヵ月` / `3か月`): the small vowels, and `ヵ` `ヶ`
 * (read ka in counters), which fold to `カ`. Not `ャ` `ュ` `ョ` `ッ` `ヮ`, whose size tells
 * words apart (`ビョウイン` hospital, `ビヨウイン` beauty salon).
 */
const SMALL_KANA = [[0x30a1, 0x30a2], [0x30a3, 0x30a4], [0x30a5, 0x30a6], [0x30a7, 0x30a8], [0x30a9, 0x30aa], [0x30f5, 0x30ab], [0x30f6, 0x30ab]] as const
const FOLD_FROM = 0x3041
const FOLD_TO = 0x30fe
// What each code unit of U+3041…U+30FE folds to: hiragana to katakana, then small kana to full size.
const KANA_FOLDS = (() => {
  const folds = new Uint16Array(FOLD_TO - FOLD_FROM + 1)
  for (let code = FOLD_FROM; code <= FOLD_TO; code++) folds[code - FOLD_FROM] = (code >= 0x3041 && code <= 0x3096) || code === 0x309d || code === 0x309e ? code + 0x60 : code
  for (const [small, full] of SMALL_KANA) {
    for (let code = FOLD_FROM; code <= FOLD_TO; code++) if (folds[code - FOLD_FROM] === small) folds[code - FOLD_FROM] = full
  }
  return folds
})()

/**
 * Kana folded to one form, a code unit at a time (offsets carry over): a hiragana letter (or
 * iteration mark) becomes its katakana, and a small vowel or `ヵ` `ヶ` its full-size kana
 * (`SMALL_KANA`).
 */
export function foldKanaCode(code: number): number {
  return code >= FOLD_FROM && code <= FOLD_TO ? (KANA_FOLDS[code - FOLD_FROM] ?? code) : code
}

// The fold table's changes, as [from, to] code units.
const KANA_CHANGES = [...KANA_FOLDS].flatMap((folded, i) => (folded === FOLD_FROM + i ? [] : [[FOLD_FROM + i, folded] as const]))

/** A regular expression matching any one of `codes` (code units of the BMP). */
function oneOf(codes: Iterable<number>): RegExp {
  return new RegExp(`[${[...codes].map((code) => `\\u${code.toString(16).padStart(4, '0')}`).join('')}]`)
}

/** Whether text holds a code unit `foldKanaCode` changes (hiragana, small kana): the fold table's own. */
export const FOLDS_KANA = oneOf(KANA_CHANGES.map(([from]) => from))

/** Whether text holds a code unit other kana fold to (`foldKanaCode`: katakana of a hiragana, a full-size kana of a small one). */
export const FOLDED_KANA = oneOf(new Set(KANA_CHANGES.map(([, to]) => to)))

/** The long-vowel mark `ー`. */
export const LONG_VOWEL = 0x30fc
// What `emitCjkRun` handles apart from plain characters: a long-vowel mark, or a katakana separator.
const SPECIAL_IN_RUN = new RegExp(`[\u30fc${KATAKANA_JOINERS}]`)

/** 1 for katakana, 2 for hiragana, 0 for anything else (the long-vowel mark included). */
function kanaScript(code: number): number {
  if ((code >= 0x30a1 && code <= 0x30fa) || code === 0x30fd || code === 0x30fe || (code >= 0x31f0 && code <= 0x31ff)) return 1
  if ((code >= 0x3041 && code <= 0x3096) || code === 0x309d || code === 0x309e) return 2
  return 0
}

/** Whether a katakana letter (as the analyzer counts them: `kanaScript` 1), the long-vowel mark not. */
export function isKatakanaLetter(code: number): boolean {
  return kanaScript(code) === 1
}

/**
 * Bigrams of a CJK run, then its last character; a character keeps its combining marks (e.g.
 * variation selectors). Katakana separators inside the run are skipped, a long-vowel mark that
 * ends a kana word is dropped (see `endsKanaWord`), hiragana is folded to katakana.
 */
function emitCjkRun(run: string, base: number, sink: Sink, pairSink?: PairSink, general = false): void {
  const plain = !general && !MAY_HOLD_MARKS.test(run)
  if (plain && !SPECIAL_IN_RUN.test(run)) {
    // Every code unit is a character of its own (the usual case): no bounds to work out.
    const n = run.length
    if (pairSink !== undefined) for (let k = 0; k + 1 < n; k++) pairSink(foldKanaCode(run.charCodeAt(k)), foldKanaCode(run.charCodeAt(k + 1)))
    else for (let k = 0; k + 1 < n; k++) sink(String.fromCharCode(foldKanaCode(run.charCodeAt(k)), foldKanaCode(run.charCodeAt(k + 1))), base + k, base + k + 2, true, base + k + 1)
    sink(String.fromCharCode(foldKanaCode(run.charCodeAt(n - 1))), base + n - 1, base + n, true, base + n)
    return
  }
  if (plain) {
    // Every code unit is a character of its own, some of them dropped (separators, a word's last long-vowel mark): the characters kept, in one pass.
    let previous = -1
    let previousAt = -1
    // The character kept before `previous` (-1: none).
    let beforePrevious = -1
    for (let i = 0; i < run.length; i++) {
      const code = run.charCodeAt(i)
      if (!isKept(run, i, code)) continue
      const folded = foldKanaCode(code)
      if (previous < 0) {
        // The run's first character kept.
      } else if (pairSink !== undefined) pairSink(previous, folded)
      else sink(String.fromCharCode(previous, folded), base + previousAt, base + i + 1, true, base + previousAt + 1)
      if (code === LONG_VOWEL && previous >= 0) {
        const nextAt = nextKept(run, i + 1)
        const next = nextAt < 0 ? -1 : foldKanaCode(run.charCodeAt(nextAt))
        if (mayEndCompoundWord(beforePrevious, previous, next, nextAt < 0 ? 0 : 1 + keptAfter(run, nextAt))) {
          // The compound read without the mark: the bigram across it.
          if (pairSink !== undefined) pairSink(previous, next)
          else sink(String.fromCharCode(previous, next), base + previousAt, base + nextAt + 1, true, base + previousAt + 1)
        }
      }
      beforePrevious = previous
      previous = folded
      previousAt = i
    }
    if (previous >= 0) sink(String.fromCharCode(previous), base + previousAt, base + previousAt + 1, true, base + previousAt + 1)
    return
  }
  // Start and end offsets (within `run`) of the characters kept.
  const starts: number[] = []
  const ends: number[] = []
  // Whether the last character was kept (a combining mark goes with its character, kept or dropped).
  let kept = false
  for (let i = 0; i < run.length; ) {
    const code = run.codePointAt(i) ?? 0
    const length = code > 0xffff ? 2 : 1
    if (starts.length > 0 && mayBeMark(code) && MARK.test(run.slice(i, i + length))) {
      if (kept) ends[ends.length - 1] = i + length
    } else if (isKept(run, i, code)) {
      starts.push(i)
      ends.push(i + length)
      kept = true
    } else kept = false
    i += length
  }
  if (starts.length === 0) return
  const char = (k: number): string => foldedSlice(run, starts[k] ?? 0, ends[k] ?? 0)
  const pair = (k: number, other: number): void => {
    const gram = char(k) + char(other)
    if (pairSink !== undefined && gram.length === 2) pairSink(gram.charCodeAt(0), gram.charCodeAt(1))
    else sink(gram, base + (starts[k] ?? 0), base + (ends[other] ?? 0), true, base + (ends[k] ?? 0))
  }
  // The k-th character kept as one folded code unit, -1 for one with marks or of two code units.
  const code = (k: number): number => (k >= 0 && k < starts.length && (ends[k] ?? 0) - (starts[k] ?? 0) === 1 ? foldKanaCode(run.charCodeAt(starts[k] ?? 0)) : -1)
  for (let k = 0; k + 1 < starts.length; k++) {
    pair(k, k + 1)
    // The compound read without the mark: the bigram across it.
    if (code(k + 1) === LONG_VOWEL && mayEndCompoundWord(code(k - 1), code(k), code(k + 2), starts.length - k - 2)) pair(k, k + 2)
  }
  const last = starts.length - 1
  sink(char(last), base + (starts[last] ?? 0), base + (ends[last] ?? 0), true, base + (ends[last] ?? 0))
}

/**
 * Whether a long-vowel mark may end the first word of a katakana compound written without a
 * separator, where the analyzer cannot tell and keeps it (`ユーザーインターフェース`,
 * `プライバシーポリシー`), told by the characters around it in its run, separators skipped,
 * folded (hiragana as katakana; -1: none, or one with marks): it follows two or more kana (a
 * katakana letter right before it, a katakana letter or `ー` before that) and is followed by a
 * katakana letter and three or more characters in all. So a word of a compound is found with or
 * without its trailing mark, as a word alone is (`endsKanaWord`): a document's run is also
 * indexed without each such mark (the bigram across it, right after the one starting at the
 * same character), a query's also matched without them (`compoundVariants`). Most marks are not
 * such (`コンピューター`: one character after it; `ラーメン`: one before).
 */
export function mayEndCompoundWord(twoBefore: number, before: number, next: number, charactersAfter: number): boolean {
  return charactersAfter >= 3 && isKatakanaLetter(before) && (isKatakanaLetter(twoBefore) || twoBefore === LONG_VOWEL) && isKatakanaLetter(next)
}

/** Whether the character `code` at `at` of a run is kept: no katakana separator, no long-vowel mark ending a kana word. */
function isKept(run: string, at: number, code: number): boolean {
  return !isKatakanaJoiner(code) && !(code === LONG_VOWEL && endsKanaWord(run, at))
}

/** Where the first character a plain run (one code unit each) keeps from `from` on stands, -1: none. */
function nextKept(run: string, from: number): number {
  for (let i = from; i < run.length; i++) if (isKept(run, i, run.charCodeAt(i))) return i
  return -1
}

/** How many characters of a plain run after `at` it keeps, up to 2 (see `mayEndCompoundWord`). */
function keptAfter(run: string, at: number): number {
  let kept = 0
  for (let i = nextKept(run, at + 1); i >= 0 && kept < 2; i = nextKept(run, i + 1)) kept++
  return kept
}

/**
 * Whether the token at `i` is the bigram `emitCjkRun` adds across a long-vowel mark that may end
 * a compound's word (see `mayEndCompoundWord`): it starts where the token before it, of the same
 * run, starts. Highlights use it as any other; a query's terms and a phrase's units leave it out
 * (they are the text as written).
 */
export function isCompoundVariant(tokens: readonly Token[], i: number): boolean {
  const token = tokens[i]
  const before = tokens[i - 1]
  return token !== undefined && before !== undefined && token.cjk && before.cjk && token.start === before.start
}

/**
 * The tokens of one normalised CJK run as `emitCjkRun` gives them, and its pairs (for a test
 * of its faster paths against the general one, with `general`).
 */
export function cjkRunTokens(run: string, general: boolean): { tokens: Token[]; pairs: number[][] } {
  const tokens: Token[] = []
  const pairs: number[][] = []
  emitCjkRun(run, 0, (term, start, end, cjk, headEnd) => void tokens.push({ term, start, end, cjk, headEnd }), (first, second) => void pairs.push([first, second]), general)
  emitCjkRun(run, 0, (term, start, end, cjk, headEnd) => void tokens.push({ term, start, end, cjk, headEnd }), undefined, general)
  return { tokens, pairs }
}

/**
 * Whether the long-vowel mark at `at` ends a kana word of two or more characters before it
 * (`コンピューター`, `サーバー管理`, `データーの`; not `ラーメン`, nor `カー`): what follows
 * it is not kana of the script before it (the run's end, a separator, kanji, the other script).
 */
function endsKanaWord(run: string, at: number): boolean {
  const next = run.charCodeAt(at + 1)
  if (next === LONG_VOWEL) return false
  let script = 0
  let length = 0
  // Hint: two characters back decide it: a walk over the whole word would make a run of `アーアー…` quadratic.
  for (let i = at - 1; i >= 0 && (script === 0 || length < 2); i--) {
    const code = run.charCodeAt(i)
    const own = kanaScript(code)
    if (own === 0 && code !== LONG_VOWEL) break
    if (own !== 0) {
      if (script === 0) script = own
      else if (own !== script) break
    }
    length++
  }
  if (script === 0 || length < 2) return false
  return Number.isNaN(next) || kanaScript(next) !== script
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
  for (const { segment, index } of (graphemeSegmenter ??= new Intl.Segmenter('und', { granularity: 'grapheme' })).segment(text)) {
    const normalized = normalizeTerm(segment)
    out += normalized
    for (let i = 0; i < normalized.length; i++) {
      starts.push(index)
      ends.push(index + segment.length)
    }
  }
  return { text: out, starts, ends }
}

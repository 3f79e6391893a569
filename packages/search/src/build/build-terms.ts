import type { PairSink } from '@frontdesk/core'
import { CHARACTER_CLASSES, characterClass, foldKanaCode, forEachCjkRunTerm, forEachIndexTerm, joinedForm, joinsCompound, katakanaRunGoesOn, normalizeTerm, wordParts } from '@frontdesk/core'
import { TERM_HASH_SEED, termHash, termHashStep } from './term-table.ts'

/*
 * The terms core's analyzer (`forEachIndexTerm`) gives, found faster for the text a bulk build
 * reads most: a hand-written scan over a table of character classes instead of the analyzer's
 * regular expression (a third of a 100,000-item build). It covers text whose characters are
 * all in the table's plain classes — letters, ASCII digits, `_`, the mid-word punctuation of
 * UAX #29, CJK characters without combining marks, and separators — and hands any other field
 * (marks, format characters, other digits, Thai and its neighbours, characters beyond the BMP)
 * to core's analyzer whole. The classes are core's own (`characterClass`, as the analyzer's
 * expression places each character); a property test checks that both give the same terms, in
 * the same order.
 */

const { separator: SEPARATOR, letter: LETTER, digit: DIGIT, underscore: UNDERSCORE, midLetter: MID_LETTER, midNumber: MID_NUMBER, midBoth: MID_BOTH, cjk: CJK, other: OTHER } = CHARACTER_CLASSES

let classes: Uint8Array | null = null

/** The class of every BMP code unit, computed once. */
export function characterClasses(): Uint8Array {
  if (classes !== null) return classes
  const table = new Uint8Array(0x10000)
  for (let code = 0; code < 0x10000; code++) table[code] = characterClass(code)
  classes = table
  return table
}

/** Whether a class continues a word (`WORD_CHAR` of the analyzer, marks aside). */
function isWordChar(cls: number): boolean {
  return cls === LETTER || cls === DIGIT || cls === UNDERSCORE
}

/**
 * Takes a word (not CJK) found in plain text as where it lies: `text.slice(start, end)`, without
 * making that string; with its `termHash`, worked out as the scan reads it.
 */
export type WordSink = (text: string, start: number, end: number, hash: number) => void

/**
 * Feeds the terms to index for `text` to the sinks, exactly as `forEachIndexTerm(text, sink,
 * pairSink)` of core does (same terms, same order, same CJK flags), faster for plain text;
 * with `wordSink`, the words of plain text go there instead of to `sink` (in the same order).
 */
export function forEachBuildTerm(text: string, sink: (term: string, cjk: boolean) => void, pairSink: PairSink, wordSink?: WordSink): void {
  if (text === '') return
  // Hint: ASCII text is its own NFKC form, has no diacritics to fold and no character the scan hands on: lower case is all its `normalizeTerm` (half of an import's text is English).
  if (!NON_ASCII.test(text)) scan(text.toLowerCase(), sink, pairSink, wordSink)
  else if (!scanPlainText(normalizeTerm(text), sink, pairSink, wordSink)) forEachIndexTerm(text, sink, pairSink)
}

const NON_ASCII = /[^\x00-\x7f]/

/**
 * The scan itself, over normalised text: `false` (and nothing fed to the sinks) when the text
 * holds a character it does not handle. Words go to `wordSink` when given, else to `sink`.
 */
export function scanPlainText(normalized: string, sink: (term: string, cjk: boolean) => void, pairSink: PairSink, wordSink?: WordSink): boolean {
  const table = classes ?? characterClasses()
  const n = normalized.length
  for (let i = 0; i < n; i++) if (table[normalized.charCodeAt(i)] === OTHER) return false
  scan(normalized, sink, pairSink, wordSink)
  return true
}

/** `scanPlainText` of normalised text known to hold only characters it handles. */
function scan(normalized: string, sink: (term: string, cjk: boolean) => void, pairSink: PairSink, wordSink?: WordSink): void {
  const table = classes ?? characterClasses()
  const n = normalized.length
  // The compound the last word belongs to, as the analyzer tracks it (its joined form follows its last word).
  let compoundStart = -1
  let compoundEnd = -1
  let joiner = false
  let i = 0
  while (i < n) {
    const cls = table[normalized.charCodeAt(i)] ?? OTHER
    if (cls === CJK) {
      if (joiner) sinkJoined(normalized, compoundStart, compoundEnd, sink)
      compoundStart = -1
      joiner = false
      // The run (going on across katakana separators), its terms as core's analyzer gives them.
      let j = i + 1
      // Whether it holds a long-vowel mark or goes on across a separator (else its terms are its pairs of characters, folded).
      let special = normalized.charCodeAt(i) === LONG_VOWEL
      for (;;) {
        for (let code = normalized.charCodeAt(j); j < n && table[code] === CJK; code = normalized.charCodeAt(++j)) if (code === LONG_VOWEL) special = true
        const on = j < n ? katakanaRunGoesOn(normalized, j) : -1
        if (on < 0) break
        special = true
        j = on
      }
      if (special) forEachCjkRunTerm(normalized.slice(i, j), sink, pairSink)
      else {
        // Hint: core's own fast path for a run of plain characters (no marks: the scan took none), without slicing the run out.
        for (let k = i; k + 1 < j; k++) pairSink(foldKanaCode(normalized.charCodeAt(k)), foldKanaCode(normalized.charCodeAt(k + 1)))
        sink(String.fromCharCode(foldKanaCode(normalized.charCodeAt(j - 1))), true)
      }
      i = j
    } else if (isWordChar(cls)) {
      let j = i + 1
      let hasLetterOrDigit = cls !== UNDERSCORE
      // Whether the word holds a `.` or `_` (then it has parts).
      let inner = cls === UNDERSCORE
      let hash = termHashStep(TERM_HASH_SEED, normalized.charCodeAt(i))
      for (;;) {
        for (; j < n; j++) {
          const code = normalized.charCodeAt(j)
          const c = table[code] ?? OTHER
          if (!isWordChar(c)) break
          hash = termHashStep(hash, code)
          if (c !== UNDERSCORE) hasLetterOrDigit = true
          else inner = true
        }
        // UAX #29 WB6/7 (letter MidLetter letter) and WB11/12 (digit MidNum digit): the word goes on.
        if (j + 1 >= n) break
        const code = normalized.charCodeAt(j)
        const mid = table[code]
        const before = table[normalized.charCodeAt(j - 1)]
        const after = table[normalized.charCodeAt(j + 1)]
        const joinsLetters = (mid === MID_LETTER || mid === MID_BOTH) && before === LETTER && after === LETTER
        const joinsDigits = (mid === MID_NUMBER || mid === MID_BOTH) && before === DIGIT && after === DIGIT
        if (!joinsLetters && !joinsDigits) break
        if (code === 0x2e) inner = true
        hash = termHashStep(hash, code)
        j += 1
      }
      // A word of underscores only is not a term.
      if (hasLetterOrDigit) {
        if (compoundStart >= 0 && joinsCompound(normalized, compoundEnd, i)) joiner = true
        else {
          if (joiner) sinkJoined(normalized, compoundStart, compoundEnd, sink)
          compoundStart = i
          joiner = false
        }
        compoundEnd = j
        if (wordSink === undefined) sink(normalized.slice(i, j), false)
        else wordSink(normalized, i, j, hash)
        // A word joined by `.` or `_` is followed by its parts (core's `wordParts`).
        const parts = inner ? wordParts(normalized.slice(i, j)) : null
        if (parts !== null) {
          joiner = true
          for (const [from, to] of parts) {
            if (wordSink === undefined) sink(normalized.slice(i + from, i + to), false)
            else wordSink(normalized, i + from, i + to, termHash(normalized, i + from, i + to))
          }
        }
      }
      i = j
    } else i++
  }
  if (joiner) sinkJoined(normalized, compoundStart, compoundEnd, sink)
}

const LONG_VOWEL = 0x30fc

/** The joined form of the compound `[start, end)` (core's `joinedForm`), when it has one, fed to `sink` after its words. */
function sinkJoined(normalized: string, start: number, end: number, sink: (term: string, cjk: boolean) => void): void {
  const joined = joinedForm(normalized.slice(start, end))
  if (joined !== null) sink(joined, false)
}

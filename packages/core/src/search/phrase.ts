import { isCompoundVariant, normalizedInPlace, tokenize } from './analyzer.ts'
import type { QueryTerm } from './query-terms.ts'

/**
 * One unit of text a phrase is compared in: a whole word as the analyzer normalises it, or one
 * character of a CJK run (folded as the analyzer folds it: hiragana as katakana, a word's
 * trailing `ー` dropped, katakana separators gone), with the number of that run (`-1`: a word).
 */
export interface PhraseUnit {
  unit: string
  run: number
}

/**
 * A quoted phrase of a query (`"a phrase"`): its units (see `phraseUnits`), which an item's
 * field must hold one after the other (`hasPhrase`), and the query terms of its text, which
 * every item holding it matches: its words whole (no prefix, stem, typo or joined form:
 * `prefixWords` 0), its CJK runs as the query's. An engine finds its candidates with them.
 */
export interface Phrase {
  /** The units joined by spaces: the phrase's identity (keys, tests). */
  key: string
  units: PhraseUnit[]
  terms: QueryTerm[]
}

/**
 * How many items a search checks for its phrases, at most: the newest ones (`newestFirst`)
 * among the visible items (of the category asked for) that match every query term of every
 * phrase. A phrase of words that more items share is looked for among those only: checking
 * reads each item's text, and a bound keeps a phrase of common words (`"of the"`) from
 * costing seconds.
 */
export const PHRASE_CANDIDATE_LIMIT = 1000

/**
 * The units of `text`, in order: its words as the analyzer gives them (a compound as its
 * words, `covid-19` as `covid` `19`; a word kept whole across `.` or `_` whole: the joined
 * forms and parts the analyzer adds after them start inside an earlier word and are left out),
 * and the characters of its CJK runs, each the first character of one of the run's terms
 * (which the analyzer has folded and from which it dropped what does not count).
 */
export function phraseUnits(text: string): PhraseUnit[] {
  const units: PhraseUnit[] = []
  let wordEnd = -1
  let runs = 0
  let cjkEnd = -1
  const tokens = tokenize(text)
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    if (token === undefined || isCompoundVariant(tokens, i)) continue
    if (!token.cjk) {
      if (token.start < wordEnd) continue
      wordEnd = token.end
      units.push({ unit: token.term, run: -1 })
      continue
    }
    // The terms of one CJK run overlap (bigrams, then its last character): a term starting where the previous one ended starts a run.
    const last = units[units.length - 1]
    if (last === undefined || last.run < 0 || token.start >= cjkEnd) runs++
    cjkEnd = token.end
    units.push({ unit: String.fromCodePoint(token.term.codePointAt(0) ?? 0), run: runs })
  }
  return units
}

/**
 * Whether the units of a text hold the phrase's: the same units one after the other, where two
 * characters of one CJK run of the phrase are also of one run of the text (as the bigram that
 * joins them is a term of both). What stands between two words (spaces, punctuation, a line
 * break) does not matter; the fields of an item are apart (a phrase never spans two).
 */
export function unitsHold(text: readonly PhraseUnit[], phrase: readonly PhraseUnit[]): boolean {
  const m = phrase.length
  if (m === 0) return true
  for (let i = 0; i + m <= text.length; i++) {
    let k = 0
    for (; k < m; k++) {
      const want = phrase[k]
      const have = text[i + k]
      if (want === undefined || have === undefined || want.unit !== have.unit) break
      if (k > 0 && want.run >= 0 && want.run === phrase[k - 1]?.run && have.run !== text[i + k - 1]?.run) break
    }
    if (k === m) return true
  }
  return false
}

/** Whether one of `texts` (an item's searched fields apart) holds the phrase (see `unitsHold`): the rule, in plain code. */
export function hasPhrase(texts: readonly string[], phrase: Phrase): boolean {
  return texts.some((text) => unitsHold(phraseUnits(text), phrase.units))
}

/**
 * `hasPhrase` of every phrase, for an engine checking many items: each text is analysed once,
 * and not at all when a cheap test on its normalised form shows it cannot hold a phrase's
 * words as they must stand (`wordPattern`). Tested against `hasPhrase` on random texts.
 */
export function phraseChecker(phrases: readonly Phrase[]): (texts: readonly string[]) => boolean {
  const patterns = phrases.map(wordPattern)
  return (texts) => {
    const analysed: (PhraseUnit[] | null)[] = texts.map(() => null)
    const normalized = texts.map((text) => normalizedInPlace(text))
    return phrases.every((phrase, p) =>
      texts.some((text, t) => {
        const pattern = patterns[p]
        const plain = normalized[t]
        if (pattern !== null && pattern !== undefined && plain !== null && plain !== undefined) {
          pattern.lastIndex = 0
          if (!pattern.test(plain)) return false
        }
        const units = analysed[t] ?? phraseUnits(text)
        analysed[t] = units
        return unitsHold(units, phrase.units)
      }),
    )
  }
}

/**
 * What the normalised text of a field holding the phrase must match (`null`: no test): the
 * phrase's longest stretch of consecutive words, each one following the one before with only
 * characters that are no letter or digit between them (consecutive words of a text have
 * nothing else between them: every letter and digit is in a word or a CJK character, which
 * would be a unit between them). Only for text that the analyzer reads in place (see
 * `normalizedInPlace`); phrases of CJK characters only get none.
 */
function wordPattern(phrase: Phrase): RegExp | null {
  let best: string[] = []
  let current: string[] = []
  for (const unit of phrase.units) {
    if (unit.run >= 0) current = []
    else current.push(unit.unit)
    if (current.length > best.length) best = current
  }
  if (best.length === 0) return null
  return new RegExp(best.map(escapeRegExp).join('[^\\p{L}\\p{Nd}]*'), 'u')
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}

/** Characters that open or close a phrase: `"`, its full-width form and typographic quotes. */
export function isQuote(char: string): boolean {
  return char === '"' || char === '\uff02' || char === '\u201c' || char === '\u201d'
}

/**
 * The quoted stretches of a query, as `[from, to)` offsets of their insides: quotes pair up in
 * order (the first with the second, the third with the fourth…); a last quote left alone is
 * plain text.
 */
export function quotedSpans(query: string): [from: number, to: number][] {
  const spans: [number, number][] = []
  let open = -1
  for (let i = 0; i < query.length; i++) {
    if (!isQuote(query.charAt(i))) continue
    if (open < 0) open = i + 1
    else {
      spans.push([open, i])
      open = -1
    }
  }
  return spans
}

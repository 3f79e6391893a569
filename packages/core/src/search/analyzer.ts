/*
 * The text analyzer of full-text search (CONTRACT §5). Indexing and querying both use it, so
 * any engine behind the search port matches the same terms:
 * - text is NFKC-normalised and lower-cased (full-width `ＡＢＣ` is `abc`, half-width `ｶﾞ` is `ガ`);
 * - `Intl.Segmenter` splits it into words (it knows `don't`, `3.14`, `example.com`, Thai…);
 * - a word outside the CJK scripts is one term;
 * - a run of CJK words (Han, Hiragana, Katakana, Hangul, with no punctuation or space between)
 *   is indexed as its character bigrams, plus its last character alone, so that any word
 *   inside text without spaces is found: `移転` finds `オフィス移転のお知らせ` (bigram `移転`),
 *   and a one-character query finds every occurrence (bigrams starting with it, or the last one).
 */

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

/** A piece of normalised text: its characters and, per UTF-16 unit, the original span it came from. */
interface Normalized {
  text: string
  starts: number[]
  ends: number[]
}

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005\u3006\u30f6]/u
const ASCII_ONLY = /^[\x00-\x7f]*$/
const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' })
const graphemeSegmenter = new Intl.Segmenter('und', { granularity: 'grapheme' })

/** NFKC and lower case: the form every term is compared in. */
export function normalizeTerm(text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

/** Whether the (single) character is of a CJK script. */
export function isCjkChar(char: string): boolean {
  return CJK_CHAR.test(char)
}

/** The terms to index for `text`, in order, repeats kept (term frequency counts). */
export function indexTerms(text: string): string[] {
  return tokenize(text).map((token) => token.term)
}

/** Analyses `text` into tokens with their offsets in `text` (see the file comment for the rules). */
export function tokenize(text: string): Token[] {
  if (text === '') return []
  const normalized = normalizeWithOffsets(text)
  const tokens: Token[] = []
  for (const part of wordParts(normalized.text)) {
    if (part.cjk) emitCjkRun(normalized, part.start, part.end, tokens)
    else tokens.push(token(normalized, part.start, part.end, false))
  }
  return tokens
}

interface Part {
  start: number
  end: number
  cjk: boolean
}

/**
 * The words of normalised text, split into CJK and other runs (ICU may glue digits or Latin
 * to CJK), with adjacent CJK words merged into one run: punctuation and spaces end a run.
 */
function wordParts(text: string): Part[] {
  const parts: Part[] = []
  for (const segment of wordSegmenter.segment(text)) {
    if (!segment.isWordLike) continue
    let offset = segment.index
    for (const char of segment.segment) {
      const cjk = isCjkChar(char)
      const last = parts[parts.length - 1]
      if (last !== undefined && last.cjk === cjk && last.end === offset && (cjk || offset !== segment.index)) last.end += char.length
      else parts.push({ start: offset, end: offset + char.length, cjk })
      offset += char.length
    }
  }
  return parts
}

function emitCjkRun(normalized: Normalized, start: number, end: number, tokens: Token[]): void {
  const chars: { start: number; end: number }[] = []
  for (let i = start; i < end; ) {
    const length = (normalized.text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1
    chars.push({ start: i, end: i + length })
    i += length
  }
  let previous: { start: number; end: number } | undefined
  for (const char of chars) {
    if (previous !== undefined) tokens.push(token(normalized, previous.start, char.end, true))
    previous = char
  }
  // The last character alone: one-character queries then find it even at the end of a run.
  if (previous !== undefined) tokens.push(token(normalized, previous.start, previous.end, true))
}

function token(normalized: Normalized, start: number, end: number, cjk: boolean): Token {
  const headLength = (normalized.text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1
  return {
    term: normalized.text.slice(start, end),
    start: normalized.starts[start] ?? 0,
    end: normalized.ends[end - 1] ?? 0,
    cjk,
    headEnd: normalized.ends[start + headLength - 1] ?? 0,
  }
}

/**
 * Normalises grapheme by grapheme, so that every normalised character maps back to the
 * original characters it came from (NFKC may change lengths: `ｶﾞ` → `ガ`, `ﬁ` → `fi`).
 */
function normalizeWithOffsets(text: string): Normalized {
  if (ASCII_ONLY.test(text)) {
    const starts = Array.from({ length: text.length }, (_, i) => i)
    return { text: text.toLowerCase(), starts, ends: starts.map((i) => i + 1) }
  }
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

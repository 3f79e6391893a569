/*
 * The text rules of inquiry fields, shared by the body schema and its tests.
 *
 * - Lengths are counted in Unicode code points, not UTF-16 units nor graphemes: `"𠮷"` and
 *   `"あ"` are one character each, as a person counts them and as SQLite's `length()` does;
 *   grapheme counts change with Unicode versions, UTF-16 counts punish non-BMP scripts.
 * - Control characters (C0 U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F) are refused, not
 *   stripped: silently changing what a person sent is worse than telling the form. Only
 *   `content` may hold line breaks and tabs (`\n`, `\r`, `\t`).
 * - Lone surrogates (possible in JSON as `"\ud800"`) are refused: they are not text and cannot
 *   be stored or mailed faithfully.
 * - Single-line fields also refuse the line and paragraph separators U+2028/U+2029 and every
 *   invisible format character (Unicode category Cf): bidi controls (U+202A–U+202E,
 *   U+2066–U+2069, LRM, RLM, ALM), zero-width space U+200B, word joiner, BOM, soft hyphen, tag
 *   characters… They let a sender make a console show text other than what was stored (a
 *   reversed file name, a hidden second line, invisible smuggled text). The one exception is
 *   ZWNJ U+200C and ZWJ U+200D *between two visible characters*, where names need them: Persian
 *   and Indic words (`می‌خواهم`) and emoji sequences (`👩‍💻`). Multi-line `content` keeps
 *   them all: paragraphs of mixed-direction text may legitimately carry marks.
 */

const SINGLE_LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
// Hint: a joiner is allowed only with something visible on both sides (not a space, control, separator or format character).
const JOINER_BETWEEN_VISIBLE = /(?<=[^\s\p{Cc}\p{Cf}\p{Z}])[\u200c\u200d](?=[^\s\p{Cc}\p{Cf}\p{Z}])/gu
const FORMAT_CHARACTER = /\p{Cf}/u
const MULTI_LINE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /\p{Cs}/u

/** The number of Unicode code points of `text`. */
export function codePointLength(text: string): number {
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    // Hint: a high surrogate followed by a low one is one code point; count the pair once.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    length++
  }
  return length
}

/**
 * Whether `text` holds a control character; single-line text also counts U+2028/U+2029 as such.
 * With `multiline`, `\n`, `\r` and `\t` are allowed (and the Unicode separators).
 */
export function hasControlCharacter(text: string, multiline = false): boolean {
  return (multiline ? MULTI_LINE_CONTROL : SINGLE_LINE_CONTROL).test(text)
}

/**
 * Whether single-line `text` holds an invisible format character (Unicode category Cf) other
 * than a ZWNJ or ZWJ joining two visible characters.
 */
export function hasInvisibleFormatCharacter(text: string): boolean {
  return FORMAT_CHARACTER.test(text.replace(JOINER_BETWEEN_VISIBLE, ''))
}

/** Whether `text` holds a lone (unpaired) UTF-16 surrogate. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text)
}

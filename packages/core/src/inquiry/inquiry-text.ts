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
 * - Single-line fields also refuse the characters that render as nothing, or as a blank that
 *   is not a space, where nobody can mean them: the Hangul fillers U+3164 and U+FFA0, the
 *   conjoining fillers U+115F/U+1160 outside a jamo syllable, the braille blank U+2800 outside
 *   braille, the combining grapheme joiner U+034F unless it separates combining marks, the
 *   Khmer inherent vowels U+17B4/U+17B5 (deprecated), a variation selector that follows no
 *   visible character (after one it picks a glyph: `❤️`, `葛󠄀`), every other default-ignorable
 *   code point, and the noncharacters (U+FDD0–U+FDEF and U+xxFFFE/U+xxFFFF), which are never
 *   text to interchange. Unassigned code points are kept: a newer emoji is unassigned to an
 *   older Unicode table.
 * - Every non-empty field must hold at least one visible character: a letter, digit,
 *   punctuation, symbol or private-use character (not a space, control, format character,
 *   combining mark on its own, or any of the above), so that nothing stored looks blank.
 */

const SINGLE_LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
// Hint: a joiner is allowed only with something visible on both sides (not a space, control, separator or format character).
const JOINER_BETWEEN_VISIBLE = /(?<=[^\s\p{Cc}\p{Cf}\p{Z}])[\u200c\u200d](?=[^\s\p{Cc}\p{Cf}\p{Z}])/gu
const FORMAT_CHARACTER = /\p{Cf}/u
// Hint: a base is what a variation selector or a grapheme joiner may follow: a visible character or a mark.
const BASE = String.raw`[^\s\p{Z}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u2800]`
const MEANT_INVISIBLE = new RegExp(
  [
    String.raw`(?<=${BASE})[\u180b-\u180d\u180f\ufe00-\ufe0f\u{e0100}-\u{e01ef}]`,
    String.raw`(?<=${BASE})\u034f(?=\p{M})`,
    String.raw`\u115f(?=[\u1161-\u11a7\ud7b0-\ud7c6])`,
    String.raw`(?<=[\u1100-\u115e\ua960-\ua97c])\u1160`,
    String.raw`(?<=[\u2801-\u28ff]\u2800*)\u2800(?=\u2800*[\u2801-\u28ff])`,
  ].join('|'),
  'gu',
)
// Hint: format characters (Cf) are default-ignorable too; `hasInvisibleFormatCharacter` reports them.
const INVISIBLE = /(?!\p{Cf})[\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u2800]/u
const VISIBLE = new RegExp(String.raw`(?!\p{M})${BASE}`, 'u')
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

/**
 * Whether single-line `text` holds a character that renders as nothing or as a blank where it
 * cannot be meant (a filler, a noncharacter, a stray variation selector…; see above), format
 * characters (Cf) aside: `hasInvisibleFormatCharacter` reports those.
 */
export function hasInvisibleCharacter(text: string): boolean {
  return INVISIBLE.test(text.replace(MEANT_INVISIBLE, ''))
}

/** Whether `text` holds a visible character (see above): anything but blanks, controls, marks and invisibles. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE.test(text)
}

/** Whether `text` holds a lone (unpaired) UTF-16 surrogate. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text)
}

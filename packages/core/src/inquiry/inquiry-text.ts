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
 */

const SINGLE_LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f]/
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

/** Whether `text` holds a control character; with `multiline`, `\n`, `\r` and `\t` are allowed. */
export function hasControlCharacter(text: string, multiline = false): boolean {
  return (multiline ? MULTI_LINE_CONTROL : SINGLE_LINE_CONTROL).test(text)
}

/** Whether `text` holds a lone (unpaired) UTF-16 surrogate. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text)
}

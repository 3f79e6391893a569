/*
 * HTML to plain text, for indexing a body and for showing fragments of it. Not a sanitiser:
 * what it returns is text, and is escaped again wherever it is shown.
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }
// Elements whose end separates words; any other tag (`<b>`, `<a>`…) is removed without a space.
const BLOCK_NAMES = 'p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|tr|td|th|table|thead|tbody|section|article|header|footer|aside|nav|blockquote|pre|figure|figcaption|img|main'
const BLOCK = new RegExp(String.raw`^\/?(${BLOCK_NAMES})\b`, 'i')
const BLOCK_SET = new Set(BLOCK_NAMES.replace('h[1-6]', 'h1|h2|h3|h4|h5|h6').split('|'))

/** The text of an HTML fragment: tags removed (block ends become spaces), entities decoded, whitespace collapsed. */
export function stripHtml(html: string): string {
  if (!/[<&]/.test(html)) return collapseSpaces(html)
  // Comments and raw text elements are removed first, wherever they are (inside a tag too): the expressions do that.
  const text = html.includes('<!--') || RAW_TEXT.test(html) ? null : withoutTags(html)
  if (text === null) return stripHtmlByExpressions(html)
  return collapseSpaces(text.includes('&') ? decodeEntities(text) : text)
}

/**
 * `stripHtml` as regular expressions, step by step: the definition. `stripHtml` gives the same
 * text in one pass over the usual markup and falls back to this for the rest (a test holds
 * them equal over random markup).
 */
export function stripHtmlByExpressions(html: string): string {
  // Hint: each step runs only when its text can occur (every replace copies the whole text).
  let text = html
  if (text.includes('<!--')) text = text.replace(/<!--[\s\S]*?(-->|$)/g, ' ')
  if (RAW_TEXT.test(text)) text = text.replace(/<(script|style|template)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
  text = text.replace(/<\/?([a-z][^\s/>]*)([^>"']|"[^"]*"|'[^']*')*>/gi, (tag) => (BLOCK.test(tag.slice(1)) ? ' ' : ''))
  return (text.includes('&') ? decodeEntities(text) : text).replace(/\s+/g, ' ').trim()
}

const RAW_TEXT = /<(script|style|template)\b/i

/**
 * The tag step of `stripHtmlByExpressions` in one pass, for markup where it is plain to read:
 * every `<` either starts no tag (not followed by a letter, or `/` and a letter) or starts a
 * tag that ends at the first `>` outside quoted values — the expression's first way of
 * matching, so its match. On a tag left open (where the expression's backtracking decides)
 * `null`: use the expressions. The caller has ruled out comments and raw text elements.
 */
function withoutTags(html: string): string | null {
  let out = ''
  let copied = 0
  let at = html.indexOf('<')
  while (at >= 0) {
    let i = at + 1
    if (html.charCodeAt(i) === 0x2f) i++ // /
    if (!isAsciiLetter(html.charCodeAt(i))) {
      at = html.indexOf('<', at + 1)
      continue
    }
    const nameStart = i
    // The name: up to whitespace, `/` or `>`.
    while (i < html.length) {
      const code = html.charCodeAt(i)
      if (code === 0x2f || code === 0x3e || isSpace(code)) break
      i++
    }
    const name = html.slice(nameStart, i).toLowerCase()
    // The attributes: to the first `>` outside quotes.
    for (;;) {
      if (i >= html.length) return null
      const code = html.charCodeAt(i)
      if (code === 0x3e) break
      if (code === 0x22 || code === 0x27) {
        const close = html.indexOf(code === 0x22 ? '"' : "'", i + 1)
        if (close < 0) return null
        i = close + 1
      } else i++
    }
    out += html.slice(copied, at)
    if (isBlock(name)) out += ' '
    copied = i + 1
    at = html.indexOf('<', copied)
  }
  return copied === 0 ? html : out + html.slice(copied)
}

/** Whether a tag of this name (lower case, as the tag holds it) ends a block: `BLOCK`'s test, by its leading word characters. */
function isBlock(name: string): boolean {
  let end = 0
  while (end < name.length && isWordChar(name.charCodeAt(end))) end++
  return BLOCK_SET.has(end === name.length ? name : name.slice(0, end))
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)
}

/** `\w` of a regular expression without the `u` flag. */
function isWordChar(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x5f
}

/** `\s` of a regular expression: ASCII and Unicode white space and line terminators, and U+FEFF. */
function isSpace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d)
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  )
}

/**
 * Every run of whitespace as one space, trimmed: `replace(/\s+/g, ' ').trim()` without
 * replacing each lone space by a space (most of them): only runs of two or more and other
 * whitespace characters.
 */
function collapseSpaces(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim()
}

/** Decodes the common named entities and every numeric one; unknown ones stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z0-9]{2,8});/gi, (entity, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10)
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : entity
    }
    return NAMED[name.toLowerCase()] ?? entity
  })
}

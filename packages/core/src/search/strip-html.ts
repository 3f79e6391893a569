/*
 * HTML to plain text, for indexing a body and for showing fragments of it. Not a sanitiser:
 * what it returns is text, and is escaped again wherever it is shown.
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }
// Elements whose end separates words; any other tag (`<b>`, `<a>`…) is removed without a space.
const BLOCK = /^\/?(p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|tr|td|th|table|thead|tbody|section|article|header|footer|aside|nav|blockquote|pre|figure|figcaption|img|main)\b/i

/** The text of an HTML fragment: tags removed (block ends become spaces), entities decoded, whitespace collapsed. */
export function stripHtml(html: string): string {
  if (!/[<&]/.test(html)) return collapseSpaces(html)
  // Hint: each step runs only when its text can occur (every replace copies the whole text).
  let text = html
  if (text.includes('<!--')) text = text.replace(/<!--[\s\S]*?(-->|$)/g, ' ')
  if (RAW_TEXT.test(text)) text = text.replace(/<(script|style|template)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
  text = text.replace(/<\/?([a-z][^\s/>]*)([^>"']|"[^"]*"|'[^']*')*>/gi, (tag) => (BLOCK.test(tag.slice(1)) ? ' ' : ''))
  return collapseSpaces(text.includes('&') ? decodeEntities(text) : text)
}

const RAW_TEXT = /<(script|style|template)\b/i

/**
 * Every run of whitespace as one space, trimmed: `replace(/\s+/g, ' ')` without replacing each
 * lone space by a space (most of them): only runs of two or more and other whitespace characters.
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

/** Why `isStorableText` refused a text, as a validation message. */
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain U+0000 (NUL)'

/**
 * Whether every store can hold `text`, or look it up: PostgreSQL's `text` and `jsonb` refuse
 * U+0000 (SQLite keeps it). So no text frontdesk stores may contain it, and a text to look up
 * that contains it cannot match anything stored.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000')
}

/**
 * Where the first text in `value` that `isStorableText` refuses is — a string, or the key of an
 * object — as a path below `path` (`content.body`, `tags[2]`); `null` when there is none.
 */
export function unstorableTextPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path
  if (typeof value !== 'object' || value === null) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextPath(value[i], `${path}[${i}]`)
      if (found !== null) return found
    }
    return null
  }
  for (const [key, inner] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`
    if (!isStorableText(key)) return at
    const found = unstorableTextPath(inner, at)
    if (found !== null) return found
  }
  return null
}

/** An open object or array while a JSON text is scanned. */
interface Frame {
  /** The dot path of the object or array itself (`''` for the whole document). */
  path: string
  /** An object's keys so far (`null` for an array). */
  keys: Set<string> | null
  /** An object's current key, or an array's current index. */
  at: string
  /** Whether an object expects a key next. */
  expectsKey: boolean
}

const MAX_PATH_KEY = 100

/**
 * The first key that appears twice in one object of the JSON text `text`, in document order,
 * as the dot path of its second appearance (`query`, `filter.custom_price`, `items.0.name`:
 * the `field` of a validation detail); `null` when every object's keys are distinct. Keys are
 * compared as decoded (`"a"` and `"\u0061"` are one key). `JSON.parse` keeps the last value
 * of a repeated key where other parsers keep the first: a body two readers may read
 * differently is refused rather than guessed at. `text` must already be valid JSON.
 */
export function duplicateJsonKey(text: string): string | null {
  // Hint: without a colon there is no object member at all (most bodies have some; this is cheap).
  if (!text.includes(':')) return null
  const stack: Frame[] = []
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ path: valuePath(stack), keys: c === 0x7b ? new Set() : null, at: '0', expectsKey: c === 0x7b })
      i++
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop()
      i++
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]
      if (top !== undefined) {
        if (top.keys === null) top.at = String(Number(top.at) + 1)
        else top.expectsKey = true
      }
      i++
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i)
      const top = stack[stack.length - 1]
      if (top?.keys != null && top.expectsKey) {
        const raw = text.slice(i + 1, end)
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw
        top.at = key.length > MAX_PATH_KEY ? `${key.slice(0, MAX_PATH_KEY)}…` : key
        if (top.keys.has(key)) return join(top.path, top.at)
        top.keys.add(key)
        top.expectsKey = false
      }
      i = end + 1
    } else {
      i++
    }
  }
  return null
}

/** The index of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1
  for (;;) {
    const next = text.indexOf('"', i)
    if (next < 0) return text.length
    let slashes = 0
    while (text.charCodeAt(next - 1 - slashes) === 0x5c /* \ */) slashes++
    if (slashes % 2 === 0) return next
    i = next + 1
  }
}

/** The dot path of the value about to be read in the innermost open object or array. */
function valuePath(stack: Frame[]): string {
  const top = stack[stack.length - 1]
  return top === undefined ? '' : join(top.path, top.at)
}

function join(base: string, part: string): string {
  return base === '' ? part : `${base}.${part}`
}

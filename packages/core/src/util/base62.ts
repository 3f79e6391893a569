const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** `length` characters of base62, uniformly random (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2))
    for (const byte of bytes) {
      // 248 = 62 * 4: bytes at or above it would favour the first characters.
      if (byte < 248) out += ALPHABET[byte % 62]
      if (out.length === length) break
    }
  }
  return out
}

/** `value` (0 ≤ value < 62^width) in base62, left-padded with `0` to `width` characters. */
export function toBase62(value: number, width: number): string {
  let out = ''
  let rest = Math.floor(value)
  while (rest > 0) {
    out = ALPHABET[rest % 62] + out
    rest = Math.floor(rest / 62)
  }
  return out.padStart(width, '0')
}

/** Whether every character of `value` is base62. */
export function isBase62(value: string): boolean {
  return /^[0-9A-Za-z]*$/.test(value)
}

import { hash } from 'node:crypto'

/** Hex SHA-256 of a UTF-8 string. */
export function sha256Hex(value: string): string {
  // Hint: the one-shot `hash` (Node ≥ 20.12) makes no Hash object: less than half `createHash`'s cost for a short string.
  return hash('sha256', value, 'hex')
}

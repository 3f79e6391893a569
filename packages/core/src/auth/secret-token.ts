import { isBase62, randomBase62, toBase62 } from '../util/base62.ts'
import { sha256Hex } from '../util/sha256.ts'

const BODY_LENGTH = 32
const CHECKSUM_LENGTH = 6

/**
 * Secrets handed out once (API keys, preview tokens) share one shape:
 * `<prefix>` + 32 random base62 characters + a 6-character base62 checksum of the rest.
 * The checksum lets a server refuse a mistyped or made-up secret without touching storage;
 * it is not a signature (anyone can compute it), the 190 random bits are what protect.
 */
export function createSecret(prefix: string): string {
  const head = prefix + randomBase62(BODY_LENGTH)
  return head + checksum(head)
}

/** Whether `secret` has the shape and a matching checksum for one of `prefixes`; returns that prefix or `null`. */
export function checkSecret(secret: string, prefixes: readonly string[]): string | null {
  const prefix = prefixes.find((p) => secret.startsWith(p))
  if (prefix === undefined || secret.length !== prefix.length + BODY_LENGTH + CHECKSUM_LENGTH) return null
  const head = secret.slice(0, prefix.length + BODY_LENGTH)
  const tail = secret.slice(head.length)
  if (!isBase62(secret.slice(prefix.length))) return null
  return checksum(head) === tail ? prefix : null
}

/** What is stored instead of a secret: its hex SHA-256. */
export function hashSecret(secret: string): string {
  return sha256Hex(secret)
}

function checksum(head: string): string {
  // 32 bits of SHA-256 fit in 6 base62 characters (62^6 > 2^32).
  return toBase62(Number.parseInt(sha256Hex(head).slice(0, 8), 16), CHECKSUM_LENGTH)
}

import type { ApiKeyKind } from '../model/api-key.ts'
import { checkSecret, createSecret, hashSecret } from './secret-token.ts'

/** Prefix of tenant API keys. */
export const TENANT_KEY_PREFIX = 'fdk_'
/** Prefix of personal API keys. */
export const PERSONAL_KEY_PREFIX = 'fdp_'
const DISPLAY_PREFIX_LENGTH = 8

/** A freshly generated key: `key` is shown once; only `hash` and `prefix` are stored. */
export interface GeneratedApiKey {
  key: string
  hash: string
  prefix: string
}

/** Generates a key of the given kind (`fdk_…` or `fdp_…`, README "Security"). */
export function generateApiKey(kind: ApiKeyKind): GeneratedApiKey {
  const key = createSecret(kind === 'tenant' ? TENANT_KEY_PREFIX : PERSONAL_KEY_PREFIX)
  return { key, hash: hashSecret(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) }
}

/**
 * Checks a presented key's shape and checksum, without storage. Returns its kind and the
 * hash to look up, or `null` when the key cannot be one of ours. The parses of recently
 * presented keys are kept (a pure function of the key); `remember` false neither reads nor
 * keeps them.
 */
export function parseApiKey(presented: string, remember = true): { kind: ApiKeyKind; hash: string } | null {
  const known = remember ? parsedKeys.get(presented) : undefined
  if (known !== undefined) return known
  const prefix = checkSecret(presented, [TENANT_KEY_PREFIX, PERSONAL_KEY_PREFIX])
  if (prefix === null) return null
  const parsed = Object.freeze({ kind: prefix === TENANT_KEY_PREFIX ? 'tenant' : 'personal', hash: hashSecret(presented) } as const)
  if (!remember) return parsed
  if (parsedKeys.size >= PARSED_KEYS_KEPT) parsedKeys.clear()
  parsedKeys.set(presented, parsed)
  return parsed
}

/** How many recently presented well-formed keys keep their parse (a guard, not an LRU). */
const PARSED_KEYS_KEPT = 1_000

// Hint: every request presents its key, and the checksum and the lookup hash are two SHA-256s
// (~13 % of a cached detail's CPU); a site's servers present the same few keys again and again.
// Only the parse is kept: whether the key exists, is enabled and may do what it asks is
// checked against storage on every request.
const parsedKeys = new Map<string, { readonly kind: ApiKeyKind; readonly hash: string }>()

/** Prefix of preview tokens (`fdv_` + 32 random base62 + 6 checksum, as API keys). */
export const PREVIEW_TOKEN_PREFIX = 'fdv_'

/** Default lifetime of a preview token: 1 hour (README "Preview flow"). */
export const DEFAULT_PREVIEW_TTL_MS = 3_600_000

/** Longest lifetime of a preview token: 7 days (README "Preview flow"). */
export const MAX_PREVIEW_TTL_MS = 7 * 86_400_000

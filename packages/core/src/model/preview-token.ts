/** What a preview token opens: one content item or one category. */
export type PreviewTarget = { kind: 'content'; id: string } | { kind: 'category'; id: string }

/** A preview token as stored: only the SHA-256 of the token. */
export interface PreviewTokenRecord {
  id: string
  tenant_id: string
  target: PreviewTarget
  /** Hex SHA-256 of the whole token. */
  hash: string
  created_at: string
  expires_at: string
  revoked_at: string | null
}

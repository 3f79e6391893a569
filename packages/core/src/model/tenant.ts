/** A tenant: every other record belongs to exactly one. */
export interface Tenant {
  id: string
  /** `^[a-z0-9][a-z0-9-]{0,62}$`, unique. */
  code: string
  name: string
  created_at: string
}

import type { Permission } from '../auth/permissions.ts'

/** `tenant` keys (`fdk_…`) use this API; `personal` keys (`fdp_…`) hold no permission of it. */
export type ApiKeyKind = 'tenant' | 'personal'

/** An API key as stored: never the key itself, only its SHA-256 and a display prefix. */
export interface ApiKeyRecord {
  id: string
  tenant_id: string
  name: string
  kind: ApiKeyKind
  permissions: Permission[]
  /** Hex SHA-256 of the whole key. */
  hash: string
  /** First characters of the key, for telling keys apart in listings (e.g. `fdk_7Hq2`). */
  prefix: string
  created_at: string
  last_used_at: string | null
  disabled_at: string | null
  /** Requests per second; `null` = the default (100), `0` = unlimited. */
  rate_limit: number | null
}

import type { ApiKeyRecord } from '../model/api-key.ts'
import type { Tenant } from '../model/tenant.ts'
import type { RateLimitState } from './rate-limiter.ts'

/** Who is calling: an authenticated tenant key, and the tenant it belongs to. */
export interface Principal {
  tenant: Tenant
  key: ApiKeyRecord
  /**
   * The key's rate-limit bucket after this request (`limit` 0 = unlimited); absent for a
   * principal an embedding service built itself without `authenticate`.
   */
  rateLimit?: RateLimitState
}

/** The credentials a request presented, as the edge found them. */
export interface Credentials {
  /** The `X-API-Key` header, or `null` when absent. */
  apiKey: string | null
  /** Whether an `Authorization` header (OAuth / MCP) was present. */
  authorization: boolean
  /**
   * Whether the request carried something like a key elsewhere (a query parameter): never
   * accepted, only named in the 401's message, so its sender learns where the key belongs.
   */
  keyElsewhere?: boolean
  /**
   * The client's address, when the edge knows it. Failed authentications are rate limited
   * per address, so nobody can guess keys at speed.
   */
  clientAddress?: string
}

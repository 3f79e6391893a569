import type { ApiKeyRecord } from '../model/api-key.ts'
import type { Tenant } from '../model/tenant.ts'

/** Who is calling: an authenticated tenant key, and the tenant it belongs to. */
export interface Principal {
  tenant: Tenant
  key: ApiKeyRecord
}

/** The credentials a request presented, as the edge found them. */
export interface Credentials {
  /** The `X-API-Key` header, or `null` when absent. */
  apiKey: string | null
  /** Whether an `Authorization` header (OAuth / MCP) was present. */
  authorization: boolean
}

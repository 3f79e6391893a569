import type { Clock } from '../../app/clock.ts'
import type { Frontdesk } from '../../app/frontdesk.ts'
import type { Principal } from '../../auth/principal.ts'
import type { Tenant } from '../../model/tenant.ts'
import type { TransactionOptions } from '../../port/store.ts'
import type { TenantState } from './product-requests.ts'
import type { ListSpec, SearchSpec, TenantIndex } from './product-scenario.ts'
import type { ReplyCacheModel } from './reply-cache-model.ts'

/** One side of the check: the product or the reference. */
export interface Side {
  frontdesk: Frontdesk
  importTransaction: (tenantId: string, first: boolean) => TransactionOptions | undefined
}

/** Everything a scenario plays with. */
export interface World {
  clock: Clock & { ms: number }
  product: Side
  reference: Side
  tenants: Tenant[]
  /** A reader of each tenant (use cases take the caller as a principal; `auth` steps check keys themselves). */
  principals: [Principal, Principal]
  cache: ReplyCacheModel
  /** Preview tokens made so far (any tenant): the same token works on both sides. */
  tokens: { id: string; token: string }[]
  /** API keys made so far (any tenant): the same key works on both sides. */
  keys: { id: string; key: string }[]
  /** Whether each tenant had its first import. */
  imported: [boolean, boolean]
  /** The last search or list asked, for `related` steps. */
  lastQuery: { kind: 'search'; tenant: TenantIndex; spec: SearchSpec } | { kind: 'list'; tenant: TenantIndex; spec: ListSpec; walk: boolean; preview: number | null } | null
  /** The last few reads, to ask again exactly as they were (after each write, and by `again`); given where they are asked. */
  reads: ((where: string) => Promise<unknown>)[]
  /** Starts the product again (see `ProductUnderTest.restart`). */
  restart: (() => Promise<Frontdesk>) | null
}

/** The tenant's categories and tags as the reference has them (what requests are built from). */
export async function stateOf(world: World, tenant: TenantIndex): Promise<TenantState> {
  const store = world.reference.frontdesk.context.store
  const tenantId = world.tenants[tenant]?.id ?? ''
  return { categories: await store.listCategories(tenantId), tags: await store.listTags(tenantId) }
}

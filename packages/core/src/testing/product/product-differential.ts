import fc from 'fast-check'
import type { Clock } from '../../app/clock.ts'
import type { Frontdesk, FrontdeskOptions } from '../../app/frontdesk.ts'
import { createFrontdesk } from '../../app/frontdesk.ts'
import { CURSOR_SECRET } from '../../app/instance-secrets.ts'
import type { Reply } from '../../app/reply.ts'
import type { Principal } from '../../auth/principal.ts'
import type { Tenant } from '../../model/tenant.ts'
import type { TransactionOptions } from '../../port/store.ts'
import type { SearchResponseBody } from '../../search/search-contents.ts'
import { anApiKey, T0 } from '../fixtures.ts'
import { createMemoryStore } from '../memory/memory-store.ts'
import { createScanSearch } from '../search/scan-search.ts'
import { compareSearches } from './compare-search-replies.ts'
import { assertWithCause } from '../assert-with-cause.ts'
import { playWrite } from './product-writes.ts'
import type { Side, World } from './product-world.ts'
import { stateOf } from './product-world.ts'
import { itemId, itemSlug, listRequest, searchBody } from './product-requests.ts'
import type { ProductOp, ProductScenario } from './product-scenario.ts'
import { relatedList, relatedSearch } from './related-queries.ts'
import { PRODUCT_TENANTS, productScenario } from './product-scenario.ts'
import { assertSame } from './compare-search-replies.ts'
import type { Outcome } from './reply-cache-model.ts'
import { outcome, ReplyCacheModel } from './reply-cache-model.ts'

/** What `productDifferentialCheck` runs against: a frontdesk over its own, new store. */
export interface ProductUnderTest {
  frontdesk: Frontdesk
  /** The transaction options of an import into a tenant (`first`: the tenant's first), e.g. bulk loading, indexing alongside. */
  importTransaction?: (tenantId: string, first: boolean) => TransactionOptions | undefined
  /**
   * Starts the product again over the same storage, as a new process would (new store,
   * engine and frontdesk with the same options; the old ones closed). Without it, the
   * scenario's restarts change nothing.
   */
  restart?: () => Promise<Frontdesk>
  /** Closes what `open` opened. */
  close(): Promise<void>
}

/** What the check passes to `createFrontdesk` (the clock it moves; rate limits off: requests come as fast as the check can ask). */
export type ProductOptions = Required<Pick<FrontdeskOptions, 'clock' | 'defaultRateLimit' | 'failedAuthRate'>>

/** How to make the product under test. */
export interface ProductPairing {
  /** Opens the product over a new, empty store, its frontdesk made with `options` (and its memos as `FRONTDESK_NO_MEMO` says). */
  open(options: ProductOptions): Promise<ProductUnderTest>
}

/** Options of `productDifferentialCheck`. */
export interface ProductCheckOptions {
  runs: number
  seed: number
  /** Replays the run at this path of a failure's report (see `fuzzOptions`). */
  path?: string
  /** `false`: report the first failing scenario as found (for checks expected to fail). */
  shrink?: boolean
}

/** The cursor secret both sides get, so that their cursors are the same strings. */
const CURSOR_KEY = 'product-differential-cursor-secret'

/**
 * The whole product against an obviously-right one, over random scenarios
 * (`productScenario`): the product (its store, search engine, response cache and every memo
 * as they are) and a reference made of `createMemoryStore()`, `createScanSearch()` and core's
 * use cases without any memo or cache, told exactly the same things on one clock: imports,
 * edits, deletes, category and tag changes, keys and preview tokens, time moving. Every
 * answer is compared in full — search replies as `compareSearches` says; lists page by page
 * (items, counts, cursors: both hold the same cursor secret), details, categories, keys,
 * preview tokens, import summaries and refusals as the same JSON — except that a public list,
 * detail or category reply may be one the response cache kept (`ReplyCacheModel`: exactly the
 * reference's reply when it was cached, nothing written since, less than 60 s ago). Rejects
 * with fast-check's report (the shrunk scenario, its seed) on the first difference.
 */
export async function productDifferentialCheck(pairing: ProductPairing, options: ProductCheckOptions): Promise<void> {
  await assertWithCause(
    fc.asyncProperty(productScenario, (scenario) => play(pairing, scenario)),
    { seed: options.seed, numRuns: options.runs, endOnFailure: options.shrink === false, ...(options.path === undefined ? {} : { path: options.path }) },
  )
}

/** A clock the scenario moves. */
class ScenarioClock implements Clock {
  ms = Date.parse(T0)
  now(): number {
    return this.ms
  }
}

async function play(pairing: ProductPairing, scenario: ProductScenario): Promise<void> {
  const clock = new ScenarioClock()
  const opened = await pairing.open({ clock, defaultRateLimit: 0, failedAuthRate: 0 })
  const memory = createMemoryStore()
  const reference = createFrontdesk({ store: memory, search: createScanSearch(memory), clock, memo: false, defaultRateLimit: 0, failedAuthRate: 0 })
  try {
    const tenants: Tenant[] = PRODUCT_TENANTS.map(({ id, code }) => ({ id, code, name: `Tenant ${code}`, created_at: T0 }))
    for (const frontdesk of [opened.frontdesk, reference]) {
      for (const tenant of tenants) await frontdesk.context.store.createTenant(tenant)
      await frontdesk.context.store.instanceSecret(CURSOR_SECRET, CURSOR_KEY)
    }
    const world: World = {
      clock,
      product: { frontdesk: opened.frontdesk, importTransaction: opened.importTransaction ?? (() => undefined) },
      reference: { frontdesk: reference, importTransaction: () => undefined },
      tenants,
      principals: tenants.map((tenant) => ({ tenant, key: anApiKey(tenant.id, 'key_reader') })) as [Principal, Principal],
      cache: new ReplyCacheModel(opened.frontdesk.context.memo),
      tokens: [],
      keys: [],
      imported: [false, false],
      reads: [],
      lastQuery: null,
      restart: opened.restart ?? null,
    }
    for (const [index, items] of scenario.seed.entries()) {
      await playWrite(world, { kind: 'import', tenant: index === 0 ? 0 : 1, categories: 'all', items }, `the first import into tenant ${index}`)
    }
    for (const [i, op] of scenario.ops.entries()) await playOp(world, op, `step ${i} (${JSON.stringify(op)})`)
  } finally {
    await opened.close()
    await memory.close()
  }
}

async function playOp(world: World, op: ProductOp, where: string): Promise<void> {
  switch (op.kind) {
    case 'related': {
      const last = world.lastQuery
      if (last?.kind === 'search') return playOp(world, { kind: 'search', tenant: last.tenant, search: relatedSearch(last.spec, op.search, op.change) }, where)
      if (last?.kind === 'list') return playOp(world, { kind: 'list', tenant: last.tenant, list: relatedList(last.spec, op.list, op.change), walk: last.walk, preview: last.preview }, where)
      return
    }
    case 'search': {
      world.lastQuery = { kind: 'search', tenant: op.tenant, spec: op.search }
      const body = searchBody(await stateOf(world, op.tenant), op.search)
      const read = (at = where) => compareSearches(askSearch(world.product, world.principals[op.tenant]), askSearch(world.reference, world.principals[op.tenant]), body, at)
      remember(world, read)
      return read()
    }
    case 'list': {
      world.lastQuery = { kind: 'list', tenant: op.tenant, spec: op.list, walk: op.walk, preview: op.preview }
      const { query, normal } = listRequest(await stateOf(world, op.tenant), op.list)
      const token = op.preview === null ? null : (world.tokens[op.preview % Math.max(1, world.tokens.length)]?.token ?? null)
      const read = (at = where) => walkList(world, op.tenant, query, normal, token, op.walk, at)
      remember(world, read)
      await read()
      return
    }
    case 'detail': {
      const token = op.preview === null ? null : (world.tokens[op.preview % Math.max(1, world.tokens.length)]?.token ?? null)
      const by = op.bySlug ? itemSlug(op.n) : itemId(op.n)
      const read = (at = where) => publicRead(world, op.tenant, `${op.bySlug ? 'slug' : 'id'}:${by}`, token !== null, at, (side) =>
        op.bySlug ? side.frontdesk.getContentBySlug(world.principals[op.tenant], by, token) : side.frontdesk.getContent(world.principals[op.tenant], by, token))
      remember(world, read)
      await read()
      return
    }
    case 'categories': {
      const id = op.id
      const read = (at = where) => publicRead(world, op.tenant, id === null ? 'categories' : `category:${id}`, false, at, (side) =>
        id === null ? side.frontdesk.listCategories(world.principals[op.tenant]) : side.frontdesk.getCategory(world.principals[op.tenant], id))
      remember(world, read)
      await read()
      return
    }
    case 'again':
      await world.reads.at(-1)?.(`${where}: the last read again`)
      return
    default: {
      if (op.kind === 'restart') {
        if (world.restart === null) return
        world.product.frontdesk = await world.restart()
        // A new process: its response cache starts empty.
        world.cache = new ReplyCacheModel(world.product.frontdesk.context.memo)
      } else await playWrite(world, op, where)
      // What a write, the time or a restart changed shows in the reads asked before it: they are asked again.
      for (const [i, read] of world.reads.entries()) await read(`${where}, then recent read ${i} again`)
    }
  }
}

/** How many recent reads are asked again after each write or step of time. */
const RECENT_READS = 3

/** Keeps `read` among the recent reads. */
function remember(world: World, read: (where: string) => Promise<unknown>): void {
  world.reads.push(read)
  if (world.reads.length > RECENT_READS) world.reads.shift()
}

function askSearch(side: Side, principal: Principal) {
  return (body: Record<string, unknown>) => side.frontdesk.search(principal, body) as Promise<Reply<SearchResponseBody>>
}

/**
 * One public read of both sides, compared in full: the product's reply must be the cache
 * model's (the reference's now, or the one cached for the same request), or, for a preview
 * (never cached), the reference's now.
 */
async function publicRead(world: World, tenant: 0 | 1, request: string, preview: boolean, where: string, read: (side: Side) => Promise<Reply<unknown>>): Promise<Outcome> {
  const got = await outcome(() => read(world.product))
  const fresh = () => outcome(() => read(world.reference))
  const tenantId = world.tenants[tenant]?.id ?? ''
  const expected = preview ? await fresh() : await world.cache.expect(`${tenantId}\u0000${request}`, await world.reference.frontdesk.context.store.revision(tenantId), world.clock.now(), fresh)
  assertSame(got, expected, `${where}: ${request}${preview ? ' (preview)' : ''}`)
  return got
}

/** A list and (with `walk`) its next pages, each compared as `publicRead` does. */
async function walkList(world: World, tenant: 0 | 1, query: string, normal: string, token: string | null, walk: boolean, where: string): Promise<void> {
  let cursor: string | null = null
  for (let page = 0; page < 12; page++) {
    const search = cursor === null ? query : `${query}${query === '' ? '' : '&'}cursor=${encodeURIComponent(cursor)}`
    const result = await publicRead(world, tenant, `list:${normal}\u0000${cursor ?? ''}`, token !== null, `${where}, page ${page}`, (side) =>
      side.frontdesk.listContents(world.principals[tenant], new URLSearchParams(search), token))
    if (!walk || !result.ok) return
    cursor = (result.value as Reply<{ pagination: { next_cursor: string | null } }>).body.pagination.next_cursor
    if (cursor === null) return
  }
}

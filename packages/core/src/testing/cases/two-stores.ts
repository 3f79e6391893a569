import fc from 'fast-check'
import * as assert from 'uvu/assert'
import type { ApiKeyRecord } from '../../model/api-key.ts'
import type { FieldDefinition } from '../../model/category.ts'
import type { ContentQuery } from '../../port/content-query.ts'
import type { Store } from '../../port/store.ts'
import { assertWithCause } from '../assert-with-cause.ts'
import { aCategory, aContent, anApiKey, aTag, aTenant, at, FIELDS } from '../fixtures.ts'
import { fuzzOptions } from '../fuzz-options.ts'
import { createMemoryStore } from '../memory/memory-store.ts'
import { eventually } from '../search/search-fixtures.ts'
import { skipCase } from '../skip-case.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore, StoreSuiteOptions } from '../store-suite.ts'

/*
 * Two stores on one database (two processes), over random sequences of writes by either and
 * reads by either, every read compared with a memory store told the same writes: what each
 * store remembers (keys by hash, categories, tags, filter counts, revisions, the feed
 * position) must never outlive a write, its own or the other's. A store of `scope: 'machine'`
 * shows the other's write at once; one of `scope: 'network'` within a second (README "Content list").
 */

const FIELD_SETS: FieldDefinition[][] = [[FIELDS.text, FIELDS.number], [FIELDS.text], [FIELDS.number, FIELDS.select]]
const TAG_NAMES = ['red', 'green', 'rouge', 'blue']

type Write =
  | { kind: 'key'; n: number; disabled: boolean; rateLimit: number | null; lastUsed: number | null }
  | { kind: 'deleteKey'; n: number }
  | { kind: 'category'; id: number; active: boolean; fields: number }
  | { kind: 'tag'; id: number; name: number }
  | { kind: 'item'; n: number; category: number; tags: number[]; text: number; number: number }
  | { kind: 'deleteItem'; n: number }

type Read =
  | { kind: 'keyByHash'; n: number }
  | { kind: 'categories' }
  | { kind: 'category'; id: number }
  | { kind: 'item'; n: number }
  | { kind: 'items'; ns: number[] }
  | { kind: 'list'; tagName: number | null; tagId: number | null; text: number | null }
  | { kind: 'revision' }
  | { kind: 'position' }

type Step = { by: 0 | 1; tenant: 0 | 1 } & ({ write: Write } | { read: Read })

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('key' as const), n: fc.nat(3), disabled: fc.boolean(), rateLimit: fc.constantFrom(null, 0, 5), lastUsed: fc.constantFrom(null, 0, 10) }),
  fc.record({ kind: fc.constant('deleteKey' as const), n: fc.nat(3) }),
  fc.record({ kind: fc.constant('category' as const), id: fc.nat(1), active: fc.boolean(), fields: fc.nat(2) }),
  fc.record({ kind: fc.constant('tag' as const), id: fc.nat(2), name: fc.nat(3) }),
  fc.record({ kind: fc.constant('item' as const), n: fc.nat(5), category: fc.nat(1), tags: fc.subarray([0, 1, 2]), text: fc.nat(1), number: fc.nat(1) }),
  fc.record({ kind: fc.constant('deleteItem' as const), n: fc.nat(5) }),
)

const read: fc.Arbitrary<Read> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('keyByHash' as const), n: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'categories' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('category' as const), id: fc.nat(1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('item' as const), n: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('items' as const), ns: fc.subarray([0, 1, 2, 3, 4, 5], { minLength: 1 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('list' as const), tagName: fc.option(fc.nat(3), { nil: null }), tagId: fc.option(fc.nat(2), { nil: null }), text: fc.option(fc.nat(1), { nil: null }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'revision' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'position' as const }) },
)

const step: fc.Arbitrary<Step> = fc.record({
  by: fc.constantFrom<0 | 1>(0, 1),
  tenant: fc.constantFrom<0 | 1>(0, 0, 1),
  action: fc.oneof({ arbitrary: write.map((w) => ({ write: w })), weight: 1 }, { arbitrary: read.map((r) => ({ read: r })), weight: 2 }),
}).map(({ by, tenant, action }): Step => ({ by, tenant, ...action }))

/** Random writes and reads by two stores on one database, every read equal to the memory model's. */
export function twoStoreCases<S extends Store>(name: string, open: OpenStore<S>, options: StoreSuiteOptions<S>): void {
  const s = storeSuite(`${name}: two stores on one database over random sequences`, open, options)
  const { runs, seed, path } = fuzzOptions(20)
  const title = `whatever either store writes, every read of either equals the model's (${runs} runs, seed ${seed})`
  if (options.otherProcess === undefined) {
    skipCase(s, name, title, 'the store offers no other process')
    s.run()
    return
  }
  s(title, async ({ store, otherProcess }) => {
    const other = await otherProcess()
    assert.ok(other)
    let run = 0
    await assertWithCause(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40, size: 'max' }), async (steps) => {
        run += 1
        await play([store, other], [`ten_2s${run}a`, `ten_2s${run}b`], `r${run}`, steps)
      }),
      { numRuns: runs, seed, ...(path === undefined ? {} : { path }) },
    )
  })
  s.run()
}

async function play(stores: [Store, Store], tenants: [string, string], run: string, steps: Step[]): Promise<void> {
  const model = createMemoryStore()
  try {
    const all = [...stores, model]
    for (const tenantId of tenants) {
      for (const s of all.slice(1)) {
        await s.createTenant(aTenant(tenantId))
        await s.transaction(async (tx) => {
          for (const [id, fields] of FIELD_SETS.slice(0, 2).entries()) await tx.putCategory(aCategory(tenantId, `cat_${id}`, { fields }))
          for (const id of [0, 1, 2]) await tx.putTag(aTag(tenantId, `tag_${id}`, TAG_NAMES[id]))
        })
      }
    }
    // Hint: the tenants came through the other store and the model; `stores[0]` reads them fresh.
    const revisions = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>(), new Map<string, number>()]
    const positions: (string | null)[] = [null, null, null, null]
    for (const [i, s] of steps.entries()) {
      const tenantId = tenants[s.tenant]
      const where = `step ${i} (${JSON.stringify(s)})`
      if ('write' in s) {
        await applyWrite(stores[s.by], tenantId, run, s.write)
        await applyWrite(model, tenantId, run, s.write)
        if (stores[0].capabilities?.scope === 'network') {
          // Hint: each machine's store learns of the other's commits within a second (positions only grow:
          // once both read the same, both have seen every commit): from then on, both answer as the model.
          const same = async () => (await stores[0].feedPosition()) === (await stores[1].feedPosition())
          assert.ok((await eventually(same, 2_000)) !== null, `${where}: both stores reach the feed head within a second`)
        }
        continue
      }
      const reader = stores[s.by]
      const check = async (): Promise<void> => {
        if (s.read.kind === 'revision' || s.read.kind === 'position') {
          // Whether it moved since this store last looked, as the model's did.
          const seen = s.read.kind === 'revision' ? await reader.revision(tenantId) : await reader.feedPosition()
          const truth = s.read.kind === 'revision' ? await model.revision(tenantId) : await model.feedPosition()
          const k = s.by * 2
          const mine = s.read.kind === 'revision' ? revisions[k]?.get(tenantId) : positions[k]
          const theirs = s.read.kind === 'revision' ? revisions[k + 1]?.get(tenantId) : positions[k + 1]
          if (mine !== undefined && mine !== null) assert.is(seen !== mine, truth !== theirs, `${where}: moved since it last looked`)
          if (s.read.kind === 'revision') {
            revisions[k]?.set(tenantId, seen as number)
            revisions[k + 1]?.set(tenantId, truth as number)
          } else [positions[k], positions[k + 1]] = [seen as string, truth as string]
          return
        }
        assert.equal(await readOf(reader, tenantId, run, s.read), await readOf(model, tenantId, run, s.read), where)
      }
      const scope = reader.capabilities?.scope ?? 'machine'
      // Hint: a store of another machine learns of the other's writes within a second; it may not answer before.
      if (scope === 'network' && s.read.kind !== 'revision' && s.read.kind !== 'position') {
        await eventually(() => check().then(() => true, () => false), 2_000)
      }
      await check()
    }
  } finally {
    await model.close()
  }
}

async function applyWrite(store: Store, tenantId: string, run: string, w: Write): Promise<void> {
  const keyId = (n: number) => `key_${run}_${tenantId}_${n}`
  switch (w.kind) {
    case 'key': {
      const id = keyId(w.n)
      const patch: Partial<Pick<ApiKeyRecord, 'disabled_at' | 'last_used_at' | 'rate_limit'>> = {
        disabled_at: w.disabled ? at(1) : null, rate_limit: w.rateLimit, last_used_at: w.lastUsed === null ? null : at(w.lastUsed),
      }
      if ((await store.getApiKey(id)) === null) await store.createApiKey(anApiKey(tenantId, id, { hash: `hash_${id}`, ...patch }))
      else await store.updateApiKey(id, patch)
      return
    }
    case 'deleteKey':
      await store.deleteApiKey(keyId(w.n))
      return
    case 'category':
      await store.transaction((tx) => tx.putCategory(aCategory(tenantId, `cat_${w.id}`, { active: w.active, fields: FIELD_SETS[w.fields] ?? [] })))
      return
    case 'tag':
      await store.transaction(async (tx) => {
        const name = TAG_NAMES[w.name] ?? 'red'
        const taken = await tx.getTagByName(tenantId, name)
        if (taken === null || taken.id === `tag_${w.id}`) await tx.putTag(aTag(tenantId, `tag_${w.id}`, name))
      })
      return
    case 'item':
      await store.transaction(async (tx) => {
        const tags = []
        for (const id of w.tags) {
          const tag = await tx.getTag(tenantId, `tag_${id}`)
          if (tag !== null) tags.push({ id: tag.id, name: tag.name })
        }
        await tx.putContent(aContent(tenantId, `cnt_${w.n}`, `cat_${w.category}`, { tags, fields: { [FIELDS.text.id]: ['ant', 'bee'][w.text] ?? 'ant', [FIELDS.number.id]: w.number } }))
      })
      return
    case 'deleteItem':
      await store.transaction((tx) => tx.deleteContent(tenantId, `cnt_${w.n}`))
      return
  }
}

async function readOf(store: Store, tenantId: string, run: string, r: Read): Promise<unknown> {
  switch (r.kind) {
    case 'keyByHash':
      return store.findApiKeyByHash(`hash_key_${run}_${tenantId}_${r.n}`)
    case 'categories':
      return store.listCategories(tenantId)
    case 'category':
      return store.getCategory(tenantId, `cat_${r.id}`)
    case 'item':
      return store.getContent(tenantId, `cnt_${r.n}`)
    case 'items':
      return store.getContents(tenantId, r.ns.map((n) => `cnt_${n}`))
    case 'list': {
      const query: ContentQuery = { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 100 }
      if (r.tagName !== null) query.tagNames = [TAG_NAMES[r.tagName] ?? 'red']
      if (r.tagId !== null) query.tagIds = [`tag_${r.tagId}`]
      if (r.text !== null) query.fieldEquals = [{ field: FIELDS.text, value: ['ant', 'bee'][r.text] ?? 'ant' }]
      return store.listContents(tenantId, query)
    }
    default:
      return null
  }
}

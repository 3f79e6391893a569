import type { SearchEngine } from '@frontdesk/search'
import { createSearchEngine, directorySnapshots } from '@frontdesk/search'
import type { Store } from '@frontdesk/core'
import { createFrontdesk } from '@frontdesk/core'
import { anApiKey, assertWithCause, fuzzOptions } from '@frontdesk/core/testing'
import fc from 'fast-check'
import * as assert from 'uvu/assert'
import type { cliFixture } from '../../test/util/cli-fixture.ts'
import { behaviourSuite, cliFixtureFor } from '../../test/util/cli-fixture.ts'
import { openStore } from '../session.ts'

/*
 * Imports of every size (created, edited and scheduled items, category and tag changes), item
 * deletions and server restarts in random order, through the real `frontdesk import` and
 * `content delete`, with the snapshots they leave: every start (restoring the snapshot the
 * imports left behind and replaying the feed after it) must answer exactly what an index
 * built once from the data of that moment answers — hits, order, totals, highlights. A
 * restart either closes its engine (a server saving the snapshot it caught up) or drops it (a
 * server killed: nothing saved). The imports leave their snapshot behind up to a random limit
 * (`FRONTDESK_SEARCH_CATCH_UP`), and beyond it write a delta of at most a random number of
 * items (`FRONTDESK_SEARCH_DELTA_ITEMS`), so that the paths that write nothing, that write a
 * delta over a delta, and that rewrite the snapshot all run, with restarts that merge the delta
 * (saving) or not between them. In half the sequences those writes are the refreshes imports
 * hand off (`CliEnv.detach`), run unawaited beside the steps that follow, as `frontdesk
 * search-snapshot` runs in a process of its own; a saving restart waits for them, as `serve`
 * does. Each sequence in a tenant of its own, on SQLite and PostgreSQL.
 */

type Fixture = ReturnType<typeof cliFixture>
const test = await behaviourSuite<{ f: Fixture }>('imports, deletions and restarts: every start answers as an index built from the data', import.meta.url, {} as { f: Fixture })
test.before.each(async (context) => {
  context.f = await cliFixtureFor(import.meta.url)
})
test.after.each((context) => context.f.cleanup())

const { runs, seed, path: replay } = fuzzOptions(6)
const WORDS = ['lighthouse', 'harbour', 'keeper', 'lamp', 'museum', 'ship', 'オフィス', '移転', 'お知らせ']
const SLUGS = 24
const TAGS = ['alpha', 'beta', 'gamma']
const QUERIES = ['lighthouse', 'harbour keeper', 'lamp', 'ship', 'オフィス', '移転 お知らせ', 'mus', 'lighthose', 'note', 'extra']
const NOW = Date.parse('2026-03-01T00:00:00.000Z')
const HOUR = 3_600_000

const line = (record: Record<string, unknown>) => `${JSON.stringify(record)}\n`
const words = (seed: number, count: number) => Array.from({ length: count }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]).join(' ')

/** An item of the pool in one of its versions: text, category, tags, status and time (in the past or, scheduled, hours ahead) vary with both. */
function item(slug: number, version: number): string {
  const v = slug * 13 + version * 5
  const category = v % 3 === 0 ? 'blog' : 'news'
  const scheduled = v % 7 === 0
  return line({
    kind: 'content',
    slug: `item-${slug}`,
    title: words(v, 1 + (v % 3)),
    summary: words(v + 1, v % 2),
    body: `<p>${words(v + 2, 2 + (v % 4))}</p>`,
    category_code: category,
    status: v % 11 === 0 ? 'draft' : 'published',
    published_at: new Date(NOW + (scheduled ? (1 + (v % 3)) * HOUR : -(1 + (v % 50)) * HOUR)).toISOString(),
    tags: TAGS.filter((_, i) => (v >> i) % 2 === 1).map((name) => `${name}`),
    ...(category === 'news' ? { content: { note: `note ${words(v + 3, 1)}` } } : {}),
  })
}

/** The categories in one of their states: the searched text field `extra` comes and goes, `news` is switched off and on. */
function categories(state: number): string {
  const fields = [{ name: 'note', type: 'text' }, ...(state % 2 === 1 ? [{ name: 'extra', type: 'text' }] : [])]
  return line({ kind: 'category', code: 'news', name: 'News', active: state % 3 !== 2, fields }) + line({ kind: 'category', code: 'blog', name: 'Blog' })
}

/**
 * The first import's tags; then one of them (by its id) renamed (an item's tag names are
 * searched). Items name their tags by the first names: a renamed one gets a new tag of the old
 * name with its next import.
 */
const tags = (ids: readonly string[], state: number) =>
  ids.length === 0 ? TAGS.map((name) => line({ kind: 'tag', name })).join('') : line({ kind: 'tag', id: ids[state % 3], name: `${TAGS[state % 3]}-v${state}` })

type Step =
  | { kind: 'import'; slugs: number[]; version: number }
  | { kind: 'categories'; state: number }
  | { kind: 'tags'; state: number }
  | { kind: 'delete'; slug: number }
  | { kind: 'restart'; save: boolean; hours: number }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('import' as const), slugs: fc.oneof(fc.array(fc.nat(SLUGS - 1), { minLength: 1, maxLength: 2 }), fc.array(fc.nat(SLUGS - 1), { minLength: 3, maxLength: 30 })), version: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('categories' as const), state: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tags' as const), state: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), slug: fc.nat(SLUGS - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restart' as const), save: fc.boolean(), hours: fc.nat(3) }) },
)

/**
 * Every query's reply (items with their highlights and fields, totals, pagination) from
 * `search`, at `now`. Scores are left out, and relevance pages are whole and compared as sets:
 * an index updated item by item weighs a term by the field lengths of the items indexed so far
 * (see `InvertedIndex`), so its scores, and the order of near ties, depend on the order items
 * were indexed — as in a server that catches up live, before this change too. Date-sorted
 * pages are compared in order, a later page too.
 */
async function answers(store: Store, search: SearchEngine, tenantId: string, now: number): Promise<unknown[]> {
  const tenant = (await store.listTenants()).find((t) => t.id === tenantId)
  if (tenant === undefined) throw new Error('no tenant')
  const frontdesk = createFrontdesk({ store, search, clock: { now: () => now } })
  const principal = { tenant, key: anApiKey(tenantId, 'key_1') }
  const news = (await store.listCategories(tenantId)).find((category) => category.code === 'news')?.id ?? ''
  const replies: unknown[] = []
  for (const query of QUERIES) {
    for (const extra of [{ size: 100 }, { size: 100, category_id: news }, { size: 100, tags: ['beta'] }, { size: 5, sort: 'published_at:desc' }, { size: 3, from: 2, sort: 'published_at:asc' }]) {
      const reply = await frontdesk.search(principal, { query, ...extra })
      const body = reply.body as { items: { id: string; score?: unknown }[]; pagination: unknown }
      const items = body.items.map(({ score: _, ...rest }) => rest)
      if (!('sort' in extra)) items.sort((a, b) => (a.id < b.id ? -1 : 1))
      replies.push({ query, extra, status: reply.status, items, pagination: body.pagination })
    }
  }
  return replies
}

test('random sequences: every restart restores what the imports left and answers as a fresh index', async ({ f }) => {
  let run = 0
  await assertWithCause(
    fc.asyncProperty(fc.array(stepArb, { minLength: 2, maxLength: 10 }), fc.constantFrom('0', '1', '3', '10', ''), fc.constantFrom('', '8', '40'), async (steps, catchUp, deltaItems) => {
      const code = `t${++run}`
      const background = run % 2 === 0
      const vars: Record<string, string> = { ...(catchUp === '' ? {} : { FRONTDESK_SEARCH_CATCH_UP: catchUp }), ...(deltaItems === '' ? {} : { FRONTDESK_SEARCH_DELTA_ITEMS: deltaItems }) }
      assert.is((await f.run(['tenant', 'create', code])).code, 0)
      const first = await f.run(['import', '-', '--tenant', code], { stdin: categories(0) + tags([], 0) + item(0, 0) + item(1, 0) + item(2, 0), vars })
      assert.is(first.code, 0, first.stderr)
      const tagIds = await (async () => {
        const store = await openStore(f.db)
        try {
          const known = await store.listTags((await store.getTenantByCode(code))?.id ?? '')
          return TAGS.map((name) => known.find((tag) => tag.name === name)?.id ?? '')
        } finally {
          await store.close()
        }
      })()
      let now = NOW
      const check = async (save: boolean) => {
        const store = await openStore(f.db)
        const snapshots = directorySnapshots(f.searchDir)
        const server = createSearchEngine({ store, warmUp: false, snapshots: save ? snapshots : { read: (name) => snapshots.read(name), write: async () => false } })
        const reference = createSearchEngine({ store, warmUp: false, snapshots: null, memo: false })
        try {
          const tenantId = (await store.getTenantByCode(code))?.id ?? ''
          const got = await answers(store, server, tenantId, now)
          const expected = await answers(store, reference, tenantId, now)
          // Hint: the first reply that differs, whole, rather than every reply.
          const at = got.findIndex((reply, i) => JSON.stringify(reply) !== JSON.stringify(expected[i]))
          assert.equal(got[at], expected[at])
        } finally {
          await server.close()
          await reference.close()
          await store.close()
        }
      }
      for (const step of steps) {
        if (step.kind === 'restart') {
          now += step.hours * HOUR
          // Hint: a saving start (as serve) waits for the refreshes imports handed off; one that does not save may come in the middle of one.
          if (step.save) assert.ok((await f.settle()).every((code) => code === 0), 'every refresh succeeded')
          await check(step.save)
          continue
        }
        const result =
          step.kind === 'delete'
            ? await f.run(['content', 'delete', `item-${step.slug}`, '--tenant', code])
            : await f.run(['import', '-', '--tenant', code], {
                vars,
                detach: background,
                stdin: step.kind === 'import' ? step.slugs.map((slug) => item(slug, step.version)).join('') : step.kind === 'categories' ? categories(step.state) : tags(tagIds, step.state),
              })
        // Hint: deleting an item that is not there is refused; nothing else may fail.
        if (step.kind !== 'delete') assert.is(result.code, 0, result.stderr)
        assert.not.match(result.stderr, /warning/)
      }
      await check(false)
      assert.ok((await f.settle()).every((code) => code === 0), 'every refresh succeeded')
    }),
    { numRuns: runs, seed, ...(replay === undefined ? {} : { path: replay }) },
  )
})

test.run()

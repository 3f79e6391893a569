import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { SearchBuildInfo } from '@frontdesk/search'
import { createSearchEngine, directorySnapshots } from '@frontdesk/search'
import type { SearchQuery } from '@frontdesk/core'
import { parseQueryTerms } from '@frontdesk/core'
import * as assert from 'uvu/assert'
import type { cliFixture } from '../../test/util/cli-fixture.ts'
import { behaviourSuite, cliFixtureFor } from '../../test/util/cli-fixture.ts'
import { openStore } from '../session.ts'

type Fixture = ReturnType<typeof cliFixture>
const test = await behaviourSuite<{ f: Fixture }>('import saves the search snapshot', import.meta.url, {} as { f: Fixture })
test.before.each(async (context) => {
  context.f = await cliFixtureFor(import.meta.url)
  await context.f.run(['tenant', 'create', 'acme'])
})
// Hint: `f` is missing when the first `before.each` failed (no database could be made).
test.after.each((context) => context.f?.cleanup())

const line = (record: Record<string, unknown>) => `${JSON.stringify(record)}\n`
const category = line({ kind: 'category', code: 'news', name: 'News' })
const content = (slug: string, title: string) => line({ kind: 'content', slug, title, category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' })
const q = (text: string): SearchQuery => ({ terms: parseQueryTerms(text), now: '2026-01-01T00:00:00.000Z', categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10 })

/** What a server started now would do: how it gets the tenant's index, and what a search finds. */
async function startLikeServe(f: Fixture, text: string, searchDir = f.searchDir): Promise<{ sources: SearchBuildInfo['source'][]; slugs: string[] }> {
  const store = await openStore(f.db)
  const builds: SearchBuildInfo[] = []
  const search = createSearchEngine({ store, snapshots: directorySnapshots(searchDir), warmUp: false, onBuild: (info) => builds.push(info) })
  try {
    const tenant = await store.getTenantByCode('acme')
    const result = await search.search(tenant?.id ?? '', q(text))
    const slugs: string[] = []
    for (const hit of result.hits) slugs.push((await store.getContent(tenant?.id ?? '', hit.id))?.slug ?? '?')
    return { sources: builds.map((b) => b.source), slugs: slugs.sort() }
  } finally {
    await search.close()
    await store.close()
  }
}

test('an import leaves the snapshot up to date: the next start restores it and finds what was imported', async ({ f }) => {
  const imported = await f.run(['import', '-', '--tenant', 'acme'], { stdin: category + content('a', 'Lighthouse keeper') + content('b', 'Harbour') })
  assert.is(imported.code, 0)
  assert.is(imported.stderr, '')
  assert.equal(readdirSync(f.searchDir).filter((name) => name.endsWith('.index')).length, 1)
  assert.equal(await startLikeServe(f, 'lighthouse'), { sources: ['snapshot'], slugs: ['a'] })

  // A second import over an existing snapshot: updates and additions, again restored as they are.
  await f.run(['import', '-', '--tenant', 'acme'], { stdin: category + content('b', 'Lighthouse museum') + content('c', 'Lighthouse lamp') })
  assert.equal(await startLikeServe(f, 'lighthouse'), { sources: ['snapshot'], slugs: ['a', 'b', 'c'] })
  assert.equal(await startLikeServe(f, 'harbour'), { sources: ['snapshot'], slugs: [] })
})

test('a start restores the snapshot and catches up with what was committed after it (the change feed)', async ({ f }) => {
  assert.is((await f.run(['import', '-', '--tenant', 'acme'], { stdin: category + content('a', 'Lighthouse keeper') })).code, 0)
  // Written by another process after the snapshot: the import's own command without --search-dir elsewhere leaves the snapshot behind.
  assert.is((await f.run(['import', '-', '--tenant', 'acme', '--search-dir', join(f.dir, 'elsewhere')], { stdin: category + content('b', 'Lighthouse lamp') + content('a', 'Harbour keeper') })).code, 0)
  assert.equal(await startLikeServe(f, 'lighthouse'), { sources: ['snapshot'], slugs: ['b'] })
  assert.equal(await startLikeServe(f, 'harbour'), { sources: ['snapshot'], slugs: ['a'] })
})

test('a first import is indexed while it writes: its snapshot is the one a build from the database writes, byte for byte', async ({ f }) => {
  const records = [category, line({ kind: 'tag', name: 'harbour news' })]
  for (let i = 0; i < 60; i++) records.push(line({ kind: 'content', slug: `item-${i}`, title: `Lighthouse ${i} keeper`, summary: i % 3 === 0 ? 'オフィス移転のお知らせ' : '', body: `<p>body ${i} lamp</p>`, category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z', tags: i % 2 === 0 ? ['harbour news'] : [] }))
  // The same slug again: the item is updated within the import.
  records.push(content('item-0', 'Lighthouse museum'))
  const imported = await f.run(['import', '-', '--tenant', 'acme'], { stdin: records.join('') })
  assert.is(imported.code, 0, imported.stderr)
  assert.is(imported.stderr, '')
  const [name] = readdirSync(f.searchDir)
  const store = await openStore(f.db)
  const search = createSearchEngine({ store, warmUp: false, snapshots: directorySnapshots(join(f.dir, 'rebuilt')) })
  try {
    const tenant = await store.getTenantByCode('acme')
    assert.ok(await search.saveSnapshot(tenant?.id ?? ''))
  } finally {
    await search.close()
    await store.close()
  }
  assert.ok(readFileSync(join(f.searchDir, name ?? '')).equals(readFileSync(join(f.dir, 'rebuilt', name ?? ''))), 'same bytes')
  assert.equal(await startLikeServe(f, 'museum'), { sources: ['snapshot'], slugs: ['item-0'] })
})

test('a dry run, a failed import and an import changing nothing searchable write no snapshot', async ({ f }) => {
  const dry = await f.run(['import', '-', '--tenant', 'acme', '--dry-run'], { stdin: category + content('a', 'Lighthouse') })
  assert.is(dry.code, 0)
  const failed = await f.run(['import', '-', '--tenant', 'acme'], { stdin: category + content('a', 'Lighthouse') + line({ kind: 'content', slug: 'BAD SLUG', title: 'x', category_code: 'news' }) })
  assert.is(failed.code, 1)
  const inquiries = await f.run(['import', '-', '--tenant', 'acme'], { stdin: line({ kind: 'inquiry_category', code: 'sales', name: 'Sales' }) })
  assert.is(inquiries.code, 0)
  assert.not.ok(existsSync(f.searchDir))
  assert.equal(await startLikeServe(f, 'lighthouse'), { sources: ['store'], slugs: [] })
})

test('--search-dir puts the snapshots elsewhere (a relative one against the working directory), and nothing beside the database', async ({ f }) => {
  const imported = await f.run(['import', '-', '--tenant', 'acme', '--search-dir', 'snapshots/here'], { stdin: category + content('a', 'Lighthouse keeper') })
  assert.is(imported.code, 0, imported.stderr)
  assert.not.ok(existsSync(f.searchDir))
  assert.equal(readdirSync(join(f.dir, 'snapshots', 'here')).filter((name) => name.endsWith('.index')).length, 1)
  assert.equal(await startLikeServe(f, 'lighthouse', join(f.dir, 'snapshots', 'here')), { sources: ['snapshot'], slugs: ['a'] })
})

test('a snapshot that cannot be written is a warning: the import succeeds and the next start builds from the database', async ({ f }) => {
  mkdirSync(dirname(f.searchDir), { recursive: true })
  writeFileSync(f.searchDir, 'not a directory')
  const imported = await f.run(['import', '-', '--tenant', 'acme'], { stdin: category + content('a', 'Lighthouse keeper') })
  assert.is(imported.code, 0)
  assert.match(imported.stdout, /^Imported 2 records into tenant acme:/)
  assert.match(imported.stderr, /^warning: the search index snapshot was not saved \(cannot write to .*(frontdesk\.db\.search|search-127\.0\.0\.1-\d+-fd_test_\w+)\); `frontdesk serve` will build the index on its next start\n$/)
  assert.ok(statSync(f.searchDir).isFile())
  assert.equal(await startLikeServe(f, 'lighthouse'), { sources: ['store'], slugs: ['a'] })
})

test.run()

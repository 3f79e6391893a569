/* Where the time of one in-process search goes: engine, records, highlights. */
import { readFileSync } from 'node:fs'
import { createFrontdesk, parseSearchRequest, highlightFragments, highlightText, parseQueryTerms, stripHtml } from '@frontdesk/core'
import type { Principal } from '@frontdesk/core'
import { chooseQueries } from '../../../bench/queries.ts'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine, directorySnapshots } from '../src/index.ts'

/** CPU time of this process in ms (the machine is shared: wall time varies with others' load). */
function cpuNow(): number {
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000
}
const [dbPath, factsPath, snap] = process.argv.slice(2)
const { key, facts } = JSON.parse(readFileSync(factsPath ?? '', 'utf8'))
const store = openSqliteStore({ path: dbPath ?? '' })
const search = createSearchEngine({ store, warmUp: false, snapshots: snap === undefined ? null : directorySnapshots(snap) })
await search.warmUp()
const frontdesk = createFrontdesk({ store, search, cache: { maxEntries: 0 } })
const principal: Principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const queries = await chooseQueries(frontdesk, principal, facts.vocabulary, facts.visibleIds.length, 40)
const tenant = (await store.listTenants())[0]?.id ?? ''
for (const cls of ['en1', 'ja1', 'en2', 'common'] as const) {
  const set = queries[cls]
  const t = { total: 0, parse: 0, engine: 0, categories: 0, records: 0, title: 0, fragments: 0 }
  for (let round = 0; round < 3; round++) {
    for (const { body } of set) {
      const terms = parseQueryTerms(String(body.query))
      let s = cpuNow()
      await frontdesk.search(principal, body)
      t.total += cpuNow() - s
      s = cpuNow()
      parseSearchRequest(body, await store.listCategories(tenant))
      t.parse += cpuNow() - s
      s = cpuNow()
      const r = await search.search(tenant, { terms, now: new Date().toISOString(), categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10 })
      t.engine += cpuNow() - s
      s = cpuNow()
      await store.listCategories(tenant)
      t.categories += cpuNow() - s
      s = cpuNow()
      const records = []
      for (const hit of r.hits) records.push(await store.getContent(tenant, hit.id))
      t.records += cpuNow() - s
      s = cpuNow()
      for (const rec of records) if (rec) highlightText(rec.title, terms)
      t.title += cpuNow() - s
      s = cpuNow()
      for (const rec of records) if (rec) highlightFragments([rec.summary, stripHtml(rec.body)], terms)
      t.fragments += cpuNow() - s
    }
  }
  const n = set.length * 3
  console.log(cls, Object.entries(t).map(([k, v]) => `${k} ${(v / n).toFixed(2)}`).join('  '))
}
await search.close()
await store.close()

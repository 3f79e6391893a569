import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk, OPERATIONS } from '@frontdesk/core'
import { handle } from '@frontdesk/http'

/*
 * `node --conditions=source --import tsx bench/micro/miss.ts FILE`: the CPU of detail requests
 * that miss the response cache, through `handle()` (no sockets, no TLS), over a benchmark
 * database (tenant `bench`: `bench/micro/seed-db.ts`, or one kept by `npm run bench -- --keep`):
 * every visible id once, in a shuffled order, with the default cache (10,000 entries, so a
 * rotation over more ids than that always misses), three rounds. Prints µs per call. Also
 * times the use case alone (`frontdesk.getContent`, no cache), to tell frontdesk's own work
 * from what the HTTP adapter adds.
 */

const path = process.argv[2]
if (path === undefined) throw new Error('usage: bench/micro/miss.ts FILE')
const store = openSqliteStore({ path })
try {
  const frontdesk = createFrontdesk({ store, defaultRateLimit: 0 })
  const { key } = await createApiKey(frontdesk.context, { tenantCode: 'bench', name: `micro-miss ${Date.now()}`, permissions: ['cms:read'], rateLimit: 0 })
  const ids: string[] = []
  let url = '/v1/cms/contents?limit=100'
  for (let page = 0; page < 1000; page++) {
    const listed = await handle(frontdesk, { method: 'GET', url, headers: { 'x-api-key': key }, secure: true, body: Buffer.alloc(0) })
    const json = JSON.parse(listed.body.toString()) as { items: { id: string }[]; pagination: { next_cursor: string | null } }
    for (const item of json.items) ids.push(item.id)
    if (json.pagination.next_cursor === null) break
    url = `/v1/cms/contents?limit=100&cursor=${encodeURIComponent(json.pagination.next_cursor)}`
  }
  // Hint: a fixed shuffle (LCG), so runs compare.
  let seed = 42
  for (let i = ids.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    const j = seed % (i + 1)
    const t = ids[i]!
    ids[i] = ids[j]!
    ids[j] = t
  }
  const requests = ids.map((id) => ({ method: 'GET', url: `/v1/cms/contents/${id}`, headers: { 'x-api-key': key, host: 'x' }, secure: true, remoteAddress: '127.0.0.1', body: Buffer.alloc(0) }))
  for (let round = 0; round < 3; round++) {
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (const request of requests) {
      const reply = await handle(frontdesk, request)
      if (reply.status !== 200) throw new Error(`status ${reply.status}: ${reply.body.toString()}`)
    }
    const wall = ((performance.now() - started) * 1000) / requests.length
    const used = process.cpuUsage(cpu)
    console.log(`round ${round + 1}: ${requests.length} misses through handle(): ${wall.toFixed(1)} µs wall, ${((used.user + used.system) / requests.length).toFixed(1)} µs CPU per call`)
  }
  const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, OPERATIONS.getContent)
  const bare = createFrontdesk({ store, defaultRateLimit: 0, cache: { maxEntries: 0 } })
  const started = performance.now()
  for (const id of ids) await bare.getContent(principal, id, null)
  console.log(`use case alone (getContent, no cache): ${(((performance.now() - started) * 1000) / ids.length).toFixed(1)} µs per call`)
} finally {
  await store.close()
}

import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { TestServer } from './util/test-server.ts'
import { startTestServer, storeOf, titled } from './util/test-server.ts'

const limits = suite<{ server: TestServer }>(titled('rate limits over HTTPS', import.meta.url))

limits.before(async (context) => {
  context.server = await startTestServer({ store: storeOf(import.meta.url), failedAuthRate: 2 })
  await context.server.tenant('acme')
})

limits.after(async ({ server }) => {
  await server.close()
})

limits('every keyed response carries RateLimit-Limit, -Remaining and -Reset', async ({ server }) => {
  const standard = await server.key('acme', ['cms:read'])
  const first = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': standard } })
  assert.is(first.status, 200)
  assert.is(first.headers['ratelimit-limit'], '100')
  assert.is(first.headers['ratelimit-remaining'], '199')
  assert.is(first.headers['ratelimit-reset'], '1')
  // A slow bucket, so that the time between two requests refills less than a token.
  const key = await server.key('acme', ['cms:read'], { rateLimit: 5 })
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })).headers['ratelimit-remaining'], '9')
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })).headers['ratelimit-remaining'], '8')
})

limits('a key past its burst gets 429 RATE_LIMITED with Retry-After, other keys are unaffected', async ({ server }) => {
  const slow = await server.key('acme', ['cms:read'], { rateLimit: 1 })
  const other = await server.key('acme', ['cms:read'], { rateLimit: 1 })
  const statuses: number[] = []
  for (let i = 0; i < 3; i++) statuses.push((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': slow } })).status)
  assert.equal(statuses, [200, 200, 429])
  const refused = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': slow } })
  assert.is(refused.status, 429)
  assert.is(refused.body.error.code, 'RATE_LIMITED')
  assert.is(refused.headers['retry-after'], '1')
  assert.is(refused.headers['ratelimit-remaining'], '0')
  assert.is(refused.headers['ratelimit-limit'], '1')
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': other } })).status, 200)
})

limits('a key set to 0 is unlimited and sends no RateLimit headers', async ({ server }) => {
  const key = await server.key('acme', ['cms:read'], { rateLimit: 0 })
  for (let i = 0; i < 5; i++) {
    const response = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })
    assert.is(response.status, 200)
    assert.is(response.headers['ratelimit-limit'], undefined)
  }
})

limits('an address guessing keys is refused with 429 for every key until its bucket refills', async ({ server }) => {
  const key = await server.key('acme', ['cms:read'])
  const guess = 'fdk_' + 'A'.repeat(38)
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': guess } })).status)
  // failedAuthRate 2/s → a burst of 4 failures, then 429 (a token may refill while the loop runs).
  assert.is(statuses.slice(0, 4).join(), '401,401,401,401')
  assert.ok(statuses.includes(429), statuses.join())
  // While blocked even a valid key is refused: a 200 beside the 429s would tell a guesser
  // which guess was right, at full speed.
  const blocked = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })
  assert.is(blocked.status, 429)
  assert.ok(Number(blocked.headers['retry-after']) >= 1)
  await new Promise((resolve) => setTimeout(resolve, 600))
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })).status, 200)
})

limits.run()

import * as assert from 'uvu/assert'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const limits = await behaviourSuite<{ server: TestServer }>('rate limits over HTTPS', import.meta.url)

limits.before(async (context) => {
  context.server = await startTestServer({ store: storeOf(import.meta.url), failedAuthRate: 2 })
  await context.server.tenant('acme')
})

limits.after(async ({ server }) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

limits('every keyed response carries RateLimit-Limit, -Remaining, -Reset and -Policy, consistent with one another', async ({ server }) => {
  const standard = await server.key('acme', ['cms:read'])
  const first = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': standard } })
  assert.is(first.status, 200)
  // 100/s with bursts of 200 is the policy "200 requests per 2 s"; Remaining never exceeds Limit.
  assert.is(first.headers['ratelimit-limit'], '200')
  assert.is(first.headers['ratelimit-remaining'], '199')
  assert.is(first.headers['ratelimit-reset'], '1')
  assert.is(first.headers['ratelimit-policy'], '200;w=2')
  // A slow bucket, so that the time between two requests refills less than a token.
  const key = await server.key('acme', ['cms:read'], { rateLimit: 5 })
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })).headers['ratelimit-remaining'], '9')
  const second = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })
  assert.equal([second.headers['ratelimit-limit'], second.headers['ratelimit-remaining'], second.headers['ratelimit-policy']], ['10', '8', '10;w=2'])
})

limits('a key past its burst gets 429 RATE_LIMITED whose Retry-After is its RateLimit-Reset; other keys are unaffected', async ({ server }) => {
  const slow = await server.key('acme', ['cms:read'], { rateLimit: 1 })
  const other = await server.key('acme', ['cms:read'], { rateLimit: 1 })
  const statuses: number[] = []
  for (let i = 0; i < 3; i++) statuses.push((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': slow } })).status)
  assert.equal(statuses, [200, 200, 429])
  const refused = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': slow } })
  assert.is(refused.status, 429)
  assert.is(refused.body.error.code, 'RATE_LIMITED')
  assert.is(refused.headers['ratelimit-limit'], '2')
  assert.is(refused.headers['ratelimit-remaining'], '0')
  assert.is(refused.headers['ratelimit-reset'], '2')
  assert.is(refused.headers['retry-after'], refused.headers['ratelimit-reset'], 'both name the same moment')
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': other } })).status, 200)
  // Waiting as told, the whole burst is back.
  await new Promise((resolve) => setTimeout(resolve, Number(refused.headers['retry-after']) * 1000))
  const back = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': slow } })
  assert.equal([back.status, back.headers['ratelimit-remaining']], [200, '1'])
})

limits('a key set to 0 is unlimited and sends no RateLimit headers', async ({ server }) => {
  const key = await server.key('acme', ['cms:read'], { rateLimit: 0 })
  for (let i = 0; i < 5; i++) {
    const response = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })
    assert.is(response.status, 200)
    assert.is(response.headers['ratelimit-limit'], undefined)
  }
})

limits('an address guessing keys gets 429 once its failures pass the limit, but its valid keys are still served', async ({ server }) => {
  const key = await server.key('acme', ['cms:read'])
  const guess = 'fdk_' + 'A'.repeat(38)
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': guess } })).status)
  // failedAuthRate 2/s → a burst of 4 failures, then 429 (a token may refill while the loop runs).
  assert.is(statuses.slice(0, 4).join(), '401,401,401,401')
  assert.ok(statuses.includes(429), statuses.join())
  const blocked = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': guess } })
  assert.is(blocked.status, 429)
  assert.ok(Number(blocked.headers['retry-after']) >= 1)
  // A neighbour behind the same address (a shared NAT) with a valid key is never refused for it.
  for (let i = 0; i < 5; i++) assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })).status, 200)
})

limits('failed authentications refused with 429 take nothing more from the address: it is back as soon as its bucket refills', async ({ server }) => {
  const guess = 'fdk_' + 'B'.repeat(38)
  // Empty the bucket (2/s, burst 4) and keep knocking at 20 requests/s for 1.5 s.
  const started = Date.now()
  let refused = 0
  while (Date.now() - started < 1_500) {
    if ((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': guess } })).status === 429) refused++
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  assert.ok(refused > 10, `${refused} refused`)
  // Had the refusals counted, the bucket would be deep in debt; it is not: a token is back within 0.5 s.
  await new Promise((resolve) => setTimeout(resolve, 600))
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': guess } })).status, 401)
})

limits.run()

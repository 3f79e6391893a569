import * as assert from 'uvu/assert'
import { AuthError, createTenant, newId, resolvePreview } from '@frontdesk/core'
import type { cliFixture } from '../../test/util/cli-fixture.ts'
import { behaviourSuite, cliFixtureFor } from '../../test/util/cli-fixture.ts'
import { parseTtl } from './preview.ts'

interface World {
  f: ReturnType<typeof cliFixture>
  tenantId: string
  contentId: string
  categoryId: string
}

async function run(world: World, ...args: string[]) {
  return world.f.run(args)
}

/** What the token opens, read back through core from the same database (another store, as another process). */
async function resolveIn(world: World, token: string): Promise<unknown> {
  const session = await world.f.session()
  try {
    return await resolvePreview(session.ctx, world.tenantId, token)
  } catch (error) {
    return error instanceof AuthError ? error.code : error
  } finally {
    await session.close()
  }
}

const cli = await behaviourSuite<World>('frontdesk preview', import.meta.url)

cli.before.each(async (world) => {
  world.f = await cliFixtureFor(import.meta.url)
  const session = await world.f.session()
  const { store, ctx } = session
  const tenant = await createTenant(ctx, { code: 'acme' })
  const at = new Date().toISOString()
  world.tenantId = tenant.id
  world.categoryId = newId('cat')
  world.contentId = newId('cnt')
  await store.transaction(async (tx) => {
    await tx.putCategory({ tenant_id: tenant.id, id: world.categoryId, code: 'news', name: 'News', description: '', sort: 0, active: true, fields: [], created_at: at, updated_at: at })
    await tx.putContent({
      tenant_id: tenant.id, id: world.contentId, slug: 'draft', title: 'Draft', category_id: world.categoryId, status: 'draft', published_at: null,
      author_name: '', tags: [], summary: '', body: '', fields: {}, meta: { og_title: '', og_description: '' }, version: 1, created_at: at, updated_at: at,
    })
  })
  await session.close()
})

// Hint: `f` is missing when the first `before.each` failed (no database could be made).
cli.after.each((world) => world.f?.cleanup())

cli('create --json prints exactly id, token and expires_at, and the token opens the item', async (world) => {
  const before = Date.now()
  const { code, stdout, stderr } = await run(world, 'preview', 'create', '--tenant', 'acme', '--content', world.contentId, '--ttl', '15m', '--json')
  assert.is(code, 0, stderr)
  const printed = JSON.parse(stdout) as { id: string; token: string; expires_at: string }
  assert.equal(Object.keys(printed), ['id', 'token', 'expires_at'])
  assert.match(printed.id, /^prv_/)
  assert.match(printed.token, /^fdv_[0-9A-Za-z]{38}$/)
  const expires = Date.parse(printed.expires_at)
  assert.ok(expires >= before + 900_000 && expires <= Date.now() + 900_000)
  assert.equal(await resolveIn(world, printed.token), { kind: 'content', id: world.contentId })
})

cli('create for a category by code prints the token once in text, valid for 1 h by default', async (world) => {
  const { code, stdout } = await run(world, 'preview', 'create', '--tenant', 'acme', '--category', 'news')
  assert.is(code, 0)
  const token = /fdv_[0-9A-Za-z]{38}/.exec(stdout)?.[0] ?? ''
  assert.match(stdout, `for category ${world.categoryId}`)
  assert.equal(await resolveIn(world, token), { kind: 'category', id: world.categoryId })
})

cli('revoke makes the token invalid', async (world) => {
  const created = JSON.parse((await run(world, 'preview', 'create', '--tenant', 'acme', '--content', 'draft', '--json')).stdout) as { id: string; token: string }
  const revoked = await run(world, 'preview', 'revoke', created.id)
  assert.is(revoked.code, 0)
  assert.is(revoked.stdout, `Revoked preview token ${created.id}\n`)
  assert.is(await resolveIn(world, created.token), 'PREVIEW_TOKEN_INVALID')
  const json = await run(world, 'preview', 'revoke', created.id, '--json')
  assert.type((JSON.parse(json.stdout) as { revoked_at: unknown }).revoked_at, 'string')
})

cli('usage errors are one line on stderr with exit code 1', async (world) => {
  const cases: [string[], RegExp][] = [
    [['preview', 'create', '--tenant', 'acme'], /exactly one of --content ID and --category ID/],
    [['preview', 'create', '--tenant', 'acme', '--content', world.contentId, '--category', 'news'], /exactly one/],
    [['preview', 'create', '--tenant', 'acme', '--content', world.contentId, '--ttl', '8d'], /at most 7d/],
    [['preview', 'create', '--tenant', 'acme', '--content', world.contentId, '--ttl', '1.5h'], /must be a whole number with a unit: 30s, 15m, 1h, 7d/],
    [['preview', 'create', '--tenant', 'acme', '--content', world.contentId, '--ttl', '0s'], /^frontdesk: option '--ttl <duration>' argument '0s' is invalid\. must be at least 1s \(at most 7d\)\n$/],
    [['preview', 'create', '--tenant', 'acme', '--content', world.contentId, '--ttl', '00h'], /must be at least 1s/],
    [['preview', 'create', '--tenant', 'nope', '--content', world.contentId], /Unknown tenant: nope/],
    [['preview', 'create', '--tenant', 'acme', '--content', 'cnt_nope'], /Unknown content: cnt_nope/],
    [['preview', 'create', '--tenant', 'acme', '--category', 'nope'], /Unknown category: nope/],
    [['preview', 'revoke', 'prv_nope'], /Unknown preview token: prv_nope/],
  ]
  for (const [args, message] of cases) {
    const { code, stdout, stderr } = await run(world, ...args)
    assert.is(code, 1, args.join(' '))
    assert.is(stdout, '')
    assert.match(stderr, message)
    assert.is(stderr.trimEnd().split('\n').length, 1)
  }
})

cli('--ttl takes 30s, 15m, 1h and 7d', () => {
  assert.is(parseTtl('30s'), 30_000)
  assert.is(parseTtl('7d'), 604_800_000)
  assert.throws(() => parseTtl('0s'))
})

cli.run()

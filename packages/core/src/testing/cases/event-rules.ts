import * as assert from 'uvu/assert'
import { createFrontdesk } from '../../app/frontdesk.ts'
import type { Context } from '../../app/context.ts'
import { importRecords } from '../../admin/import-records.ts'
import { setContentStatus } from '../../admin/set-content-status.ts'
import { announceDueContent } from '../../events/announce-due.ts'
import type { Store } from '../../port/store.ts'
import { aTenant, T0 } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'
import { allEvents, subscribe } from './event-outbox.ts'

const MINUTE = 60_000

/** A tenant `t1` and the use cases over `store` with a clock the test moves. */
async function world(store: Store, events: string[] | null = ['*']) {
  const clock = { ms: Date.parse(T0) }
  const ctx: Context = createFrontdesk({ store, clock: { now: () => clock.ms }, memo: false }).context
  await store.createTenant(aTenant('ten_1', 't1'))
  if (events !== null) await subscribe(store, 'ten_1', events)
  let after = 0
  return {
    clock,
    ctx,
    load: (records: unknown[]) => importRecords(ctx, { tenantCode: 't1', records: records.map((record, i) => ({ record, location: `r${i}` })) }),
    /** The events since the last call, as `type:slug`. */
    async events(): Promise<string[]> {
      const events = await allEvents(store, after)
      after = events.at(-1)?.seq ?? after
      return events.map((e) => `${e.type}:${String(e.data['slug'])}`)
    },
  }
}

const item = (slug: string, extra: Record<string, unknown> = {}) => ({ kind: 'content', slug, title: `Title ${slug}`, category_code: 'news', status: 'published', ...extra })
const news = (extra: Record<string, unknown> = {}) => ({ kind: 'category', code: 'news', name: 'News', ...extra })

/** Which content events the use cases write, on every store (the model check covers random sequences). */
export function eventRuleCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: content events of the use cases`, open)

  s('an import announces visible items only; the scheduler announces a scheduled one once, when its moment has passed', async ({ store }) => {
    const w = await world(store)
    await w.load([news(), item('live'), item('draft', { status: 'draft' }), item('later', { published_at: new Date(w.clock.ms + 5 * MINUTE).toISOString() })])
    assert.equal(await w.events(), ['content.published:live'])
    await announceDueContent(w.ctx, 'ten_1')
    assert.equal(await w.events(), [])
    w.clock.ms += 5 * MINUTE - 1
    await announceDueContent(w.ctx, 'ten_1')
    assert.equal(await w.events(), [])
    w.clock.ms += 1
    await announceDueContent(w.ctx, 'ten_1')
    await announceDueContent(w.ctx, 'ten_1')
    assert.equal(await w.events(), ['content.published:later'])
    const [event] = await store.readEvents(0, 1, 'ten_1')
    assert.equal(Object.keys(event?.data ?? {}).sort(), [
      'author_name', 'category_code', 'category_id', 'category_name', 'id', 'published_at', 'slug', 'summary', 'tags', 'title', 'updated_at', 'version',
    ])
  })

  s('a category made inactive unpublishes its items; made active again, it publishes them, and a moment passed meanwhile is not announced twice', async ({ store }) => {
    const w = await world(store)
    await w.load([news(), item('live'), item('later', { published_at: new Date(w.clock.ms + 5 * MINUTE).toISOString() })])
    assert.equal(await w.events(), ['content.published:live'])
    w.clock.ms += MINUTE
    await w.load([news({ active: false })])
    assert.equal(await w.events(), ['content.unpublished:live'])
    w.clock.ms += 10 * MINUTE
    await announceDueContent(w.ctx, 'ten_1')
    assert.equal(await w.events(), [], 'nothing is visible in an inactive category')
    await w.load([news({ active: true })])
    assert.equal((await w.events()).sort(), ['content.published:later', 'content.published:live'])
    await announceDueContent(w.ctx, 'ten_1')
    assert.equal(await w.events(), [])
  })

  s("renaming a category or a tag updates its announced items; a draft's edit, a scheduled item's edit and an unchanged re-import cause nothing", async ({ store }) => {
    const w = await world(store)
    const later = new Date(w.clock.ms + 5 * MINUTE).toISOString()
    await w.load([news(), item('live', { tags: ['a'] }), item('draft', { status: 'draft', tags: ['a'] }), item('later', { published_at: later })])
    assert.equal(await w.events(), ['content.published:live'])
    w.clock.ms += 1000
    await w.load([news(), item('live', { tags: ['a'] }), item('draft', { status: 'draft', title: 'Edited' }), item('later', { published_at: later, title: 'Edited' })])
    assert.equal(await w.events(), [])
    await w.load([news({ name: 'World news' })])
    assert.equal(await w.events(), ['content.updated:live'])
    await w.load([{ kind: 'tag', name: 'b', id: (await store.listTags('ten_1'))[0]?.id }])
    assert.equal(await w.events(), ['content.updated:live'])
    await w.load([item('live', { tags: ['b'], title: 'New title' })])
    assert.equal(await w.events(), ['content.updated:live'])
    await setContentStatus(w.ctx, 't1', 'live', 'draft')
    await setContentStatus(w.ctx, 't1', 'draft', 'published')
    assert.equal(await w.events(), ['content.unpublished:live', 'content.published:draft'])
  })

  s('an item imported again by id under a new slug is updated, not published again; a new item given an id is published', async ({ store }) => {
    const w = await world(store)
    await w.load([news(), item('old', { id: 'cnt_given' })])
    assert.equal(await w.events(), ['content.published:old'])
    w.clock.ms += 1000
    await w.load([item('new', { id: 'cnt_given' }), item('fresh', { id: 'cnt_fresh' })])
    assert.equal(await w.events(), ['content.updated:new', 'content.published:fresh'])
  })

  s('content events are written only while an endpoint of the tenant takes them; one created during an import commits after it, and receives what follows', async ({ store }) => {
    const w = await world(store, null)
    await w.load([news(), item('a'), item('soon', { published_at: new Date(w.clock.ms + MINUTE).toISOString() })])
    w.clock.ms += 2 * MINUTE
    await announceDueContent(w.ctx, 'ten_1')
    if (store.webhooks === undefined) {
      // Hint: a store that keeps no endpoints cannot say who listens: it writes every event.
      assert.equal(await w.events(), ['content.published:a', 'content.published:soon'])
      return
    }
    assert.equal(await w.events(), [], 'no endpoint: no content event, and no scheduled publication announced')
    await subscribe(store, 'ten_1', ['inquiry.created'], 1)
    await w.load([item('b')])
    assert.equal(await w.events(), [], 'an endpoint of inquiries only: no content event')
    let release = (): void => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    const finished: string[] = []
    const importing = importRecords(w.ctx, {
      tenantCode: 't1',
      records: (async function* () {
        yield { record: item('c'), location: 'c' }
        await held
        yield { record: item('d'), location: 'd' }
      })(),
    }).then(() => finished.push('import'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const adding = subscribe(store, 'ten_1', ['content.*'], 2).then(() => finished.push('endpoint'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    release()
    await Promise.all([importing, adding])
    // Hint: an endpoint committed while the import was open would miss c and d.
    assert.equal(finished, ['import', 'endpoint'], 'the endpoint waits for the open import')
    assert.equal(await w.events(), [])
    await w.load([item('e')])
    await setContentStatus(w.ctx, 't1', 'c', 'draft')
    w.clock.ms += MINUTE
    await announceDueContent(w.ctx, 'ten_1')
    assert.equal(await w.events(), ['content.published:e', 'content.unpublished:c'], 'a publication that passed while nobody listened is not announced later')
  })

  s.run()
}

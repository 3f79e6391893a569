import * as assert from 'uvu/assert'
import type { OutboxEvent, StoredEvent } from '../../port/event-outbox.ts'
import type { Store } from '../../port/store.ts'
import { contentEventData } from '../../events/content-events.ts'
import { aCategory, aContent, anInquiry, aTenant, T0 } from '../fixtures.ts'
import { skipCase } from '../skip-case.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore, StoreSuiteOptions } from '../store-suite.ts'

const A = 'ten_a'
const B = 'ten_b'

/** An event of the tenant, recognisable by `n`. */
export function anEvent(tenantId: string, n: number, overrides: Partial<OutboxEvent> = {}): OutboxEvent {
  return {
    tenant_id: tenantId, id: `evt_${tenantId}_${n}`, type: 'content.published', created_at: T0,
    data: { id: `cnt_${n}`, n, nested: { list: [1, 'two', null, true] }, text: 'é日本\u0000' }, ...overrides,
  }
}

/** Every event after `after`, read `limit` at a time. */
export async function allEvents(store: Store, after = 0, tenantId?: string, limit = 1000): Promise<StoredEvent[]> {
  const events: StoredEvent[] = []
  for (;;) {
    const batch = await store.readEvents(after, limit, tenantId)
    events.push(...batch)
    const last = batch.at(-1)
    if (batch.length < limit || last === undefined) return events
    after = last.seq
  }
}

/**
 * Gives the tenant an endpoint taking `events`, on a store that keeps endpoints (content events
 * are written only for tenants whose endpoints take them: `EventWriter.eventSubscriptions`).
 */
export async function subscribe(store: Store, tenantId: string, events: string[] = ['*'], n = 0): Promise<void> {
  await store.webhooks?.createWebhookEndpoint({
    id: `whe_${tenantId}_${n}`, tenant_id: tenantId, url: 'https://receiver.test/', events, secret: 'sealed', previous_secret: null,
    previous_secret_until: null, created_at: T0, disabled_at: null, disabled_reason: null, cursor: await store.lastEventSeq(), attempts: 0,
    next_attempt_at: null, failing_since: null,
  })
}

const strip = ({ seq: _seq, ...event }: StoredEvent): OutboxEvent => event

/** The event outbox (`appendEvents`, `readEvents`, `getEvent`, inquiries' events, `scheduledThrough`). */
export function eventOutboxCases<S extends Store>(name: string, open: OpenStore<S>, options: StoreSuiteOptions<S> = {}): void {
  const s = storeSuite(`${name}: event outbox`, open, options)

  s('events commit with their transaction, in order, with seqs that grow; a rolled-back one adds none', async ({ store }) => {
    await store.createTenant(aTenant(A))
    assert.is(await store.lastEventSeq(), 0)
    assert.equal(await store.readEvents(0, 10), [])
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1'))
      await tx.appendEvents([anEvent(A, 1), anEvent(A, 2, { type: 'content.updated' })])
      await tx.appendEvents([anEvent(A, 3, { type: 'content.deleted' })])
    })
    await store.transaction(async (tx) => {
      await tx.appendEvents([anEvent(A, 9)])
      throw new Error('roll back')
    }).catch(() => undefined)
    const events = await allEvents(store)
    assert.equal(events.map(strip), [anEvent(A, 1), anEvent(A, 2, { type: 'content.updated' }), anEvent(A, 3, { type: 'content.deleted' })])
    for (let i = 1; i < events.length; i++) assert.ok((events[i]?.seq ?? 0) > (events[i - 1]?.seq ?? 0), 'seqs grow')
    assert.ok((events[0]?.seq ?? 0) > 0)
    assert.ok((await store.lastEventSeq()) >= (events.at(-1)?.seq ?? 0))
    assert.equal(await store.getEvent(A, anEvent(A, 2).id), events[1])
  })

  s('readEvents pages by seq and limit, and by tenant; getEvent never answers another tenant', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.createTenant(aTenant(B))
    for (let i = 0; i < 7; i++) await store.transaction((tx) => tx.appendEvents([anEvent(i % 2 === 0 ? A : B, i)]))
    const all = await allEvents(store)
    assert.is(all.length, 7)
    assert.equal((await allEvents(store, 0, undefined, 2)).map((e) => e.id), all.map((e) => e.id))
    assert.equal((await allEvents(store, 0, B, 2)).map((e) => e.id), all.filter((e) => e.tenant_id === B).map((e) => e.id))
    const third = all[2]
    assert.ok(third)
    assert.equal((await store.readEvents(third.seq, 2)).map((e) => e.id), all.slice(3, 5).map((e) => e.id))
    assert.is(await store.getEvent(B, anEvent(A, 0).id), null)
    assert.is((await store.getEvent(A, anEvent(A, 0).id))?.tenant_id, A)
  })

  s("an inquiry's events are stored with it; a refused inquiry stores none", async ({ store }) => {
    await store.createTenant(aTenant(A))
    const inquiry = anInquiry(A, 'inq_1')
    await store.insertInquiry(inquiry, undefined, [anEvent(A, 1, { type: 'inquiry.created' })])
    await store.insertInquiry(inquiry, undefined, [anEvent(A, 2, { type: 'inquiry.created' })]).then(
      () => assert.unreachable('a second inquiry with the same id is refused'),
      () => undefined,
    )
    await store.insertInquiry(anInquiry(A, 'inq_2'))
    assert.equal((await allEvents(store)).map((e) => e.id), [anEvent(A, 1).id])
  })

  s('an event reads back as the same JSON text, keys in their order: content events as contentEventData makes them, and other shapes', async ({ store }) => {
    await store.createTenant(aTenant(A))
    const category = aCategory(A, 'cat_1', { name: 'Nouvelles 日本' })
    const item = aContent(A, 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: '子会社' }, { id: 'tag_2', name: 'a"b' }], published_at: null, summary: '\u0000é' })
    const appended = [
      anEvent(A, 1, { data: contentEventData(item, category) }),
      anEvent(A, 2, { type: 'content.unpublished', data: { ...contentEventData(item, category), extra: 1 } }),
      anEvent(A, 3),
    ]
    await store.transaction((tx) => tx.appendEvents(appended))
    const read = await allEvents(store)
    assert.equal(read.map((event) => JSON.stringify(event.data)), appended.map((event) => JSON.stringify(event.data)))
    assert.is(JSON.stringify((await store.getEvent(A, anEvent(A, 1).id))?.data), JSON.stringify(appended[0]?.data))
  })

  s('scheduledThrough is per tenant, set in a transaction, and rolled back with it', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.createTenant(aTenant(B))
    assert.is(await store.transaction((tx) => tx.scheduledThrough(A)), null)
    await store.transaction(async (tx) => {
      await tx.setScheduledThrough(A, '2025-06-20T12:00:00.000Z')
      assert.is(await tx.scheduledThrough(A), '2025-06-20T12:00:00.000Z')
    })
    await store.transaction(async (tx) => {
      await tx.setScheduledThrough(A, '2025-06-20T13:00:00.000Z')
      throw new Error('roll back')
    }).catch(() => undefined)
    assert.is(await store.transaction((tx) => tx.scheduledThrough(A)), '2025-06-20T12:00:00.000Z')
    assert.is(await store.transaction((tx) => tx.scheduledThrough(B)), null)
  })

  s("newestPublications gives each tenant's newest published_at at or before now, published items only, in one read", async ({ store }) => {
    const C = 'ten_c'
    for (const tenant of [A, B, C]) await store.createTenant(aTenant(tenant))
    const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString()
    await store.transaction(async (tx) => {
      for (const tenant of [A, B, C]) await tx.putCategory(aCategory(tenant, `cat_${tenant}`))
      await tx.putContent(aContent(A, 'cnt_a1', `cat_${A}`, { published_at: at(-10) }))
      await tx.putContent(aContent(A, 'cnt_a2', `cat_${A}`, { published_at: at(-1) }))
      await tx.putContent(aContent(A, 'cnt_a3', `cat_${A}`, { published_at: at(5) }))
      await tx.putContent(aContent(A, 'cnt_a4', `cat_${A}`, { status: 'draft', published_at: at(-0.5) }))
      await tx.putContent(aContent(B, 'cnt_b1', `cat_${B}`, { published_at: at(0) }))
      await tx.putContent(aContent(C, 'cnt_c1', `cat_${C}`, { published_at: at(1) }))
    })
    const newest = async (minutes: number) => Object.fromEntries([...(await store.newestPublications(at(minutes)))].sort())
    assert.equal(await newest(0), { [A]: at(-1), [B]: at(0) })
    assert.equal(await newest(5), { [A]: at(5), [B]: at(0), [C]: at(1) })
    assert.equal(await newest(-20), {})
  })

  const several = 'with two processes writing content and inquiries at once, a reader following seqs misses no event'
  if (options.otherProcess === undefined) {
    skipCase(s, name, several, 'the store offers no other process')
  } else {
    s(several, async ({ store, otherProcess }) => {
      const other = await otherProcess()
      assert.ok(other)
      await store.createTenant(aTenant(A))
      await store.transaction((tx) => tx.putCategory(aCategory(A, 'cat_1')))
      const seen = new Map<string, number>()
      let after = 0
      let writing = true
      const reader = (async () => {
        for (;;) {
          const ended = !writing
          for (const event of await store.readEvents(after, 50)) {
            seen.set(event.id, (seen.get(event.id) ?? 0) + 1)
            after = event.seq
          }
          if (ended) return
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
      })()
      // Hint: the reader and the writes are awaited below; one failing before then must fail
      // this case, not end the whole test run as an unhandled rejection.
      reader.catch(() => {})
      const written: string[] = []
      const writer = async (s: Store, side: string) => {
        const work: Promise<void>[] = []
        const started = (write: Promise<void>) => {
          write.catch(() => {})
          work.push(write)
        }
        for (let i = 0; i < 20; i++) {
          const inquiry = anEvent(A, i, { id: `evt_${side}_inq_${i}`, type: 'inquiry.created' })
          written.push(inquiry.id)
          started(s.insertInquiry(anInquiry(A, `inq_${side}_${i}`), undefined, [inquiry]))
          if (i % 4 === 0) {
            const content = anEvent(A, i, { id: `evt_${side}_cnt_${i}` })
            written.push(content.id)
            started(s.transaction(async (tx) => {
              await tx.putContent(aContent(A, `cnt_${side}_${i}`, 'cat_1'))
              await tx.appendEvents([content])
            }))
          }
          if (i % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 1))
        }
        await Promise.all(work)
      }
      try {
        await Promise.all([writer(store, 'x'), writer(other, 'y')])
      } finally {
        writing = false
      }
      await reader
      assert.equal([...seen.keys()].sort(), written.slice().sort())
      assert.ok([...seen.values()].every((count) => count === 1), 'no event is read twice')
    })
  }

  s.run()
}

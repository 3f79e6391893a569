import * as assert from 'uvu/assert'
import type { EntityChange } from '../../port/change-feed.ts'
import type { CategoryRecord, ContentRecord, TagRecord } from '../../model/index.ts'
import type { Store, TransactionObserver } from '../../port/store.ts'
import { aCategory, aContent, aTag, aTenant } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** Every change after `position`, read in batches of `limit`. */
async function allChanges(store: Store, position: string, limit = 1000, tenantId?: string): Promise<{ changes: EntityChange[]; position: string }> {
  const changes: EntityChange[] = []
  for (;;) {
    const batch = await store.readChanges(position, limit, tenantId)
    assert.ok(batch, `the feed reaches back to ${position}`)
    changes.push(...batch.changes)
    position = batch.position
    if (!batch.more) return { changes, position }
  }
}

const key = (c: EntityChange): string => `${c.tenantId}/${c.entity}/${c.id}`

/** The change feed (`feedPosition`, `readChanges`), `transaction` options and `ping`. */
export function changeFeedCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: change feed`, open)
  const A = 'ten_a'
  const B = 'ten_b'

  s('a committed transaction adds one change per entity it wrote, after the position read before it', async ({ store }) => {
    await store.createTenant(aTenant(A))
    const before = await store.feedPosition()
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1'))
      await tx.putTag(aTag(A, 'tag_1'))
      await tx.putContent(aContent(A, 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: '1' }] }))
      await tx.putContent(aContent(A, 'cnt_2', 'cat_1'))
    })
    const after = await store.feedPosition()
    assert.is.not(after, before)
    const read = await allChanges(store, before)
    assert.equal(new Set(read.changes.map(key)), new Set([`${A}/category/cat_1`, `${A}/tag/tag_1`, `${A}/content/cnt_1`, `${A}/content/cnt_2`]))
    assert.is(read.position, after)
    // Nothing after the newest position.
    assert.equal(await store.readChanges(after, 10), { changes: [], position: after, more: false })
  })

  s('a deleted item is a change; a rolled-back transaction adds none', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1'))
      await tx.putContent(aContent(A, 'cnt_1', 'cat_1'))
    })
    const before = await store.feedPosition()
    await store.transaction(async (tx) => {
      await tx.putContent(aContent(A, 'cnt_9', 'cat_1'))
      throw new Error('roll back')
    }).catch(() => undefined)
    assert.is(await store.feedPosition(), before)
    assert.equal((await allChanges(store, before)).changes, [])
    await store.transaction((tx) => tx.deleteContent(A, 'cnt_1'))
    assert.equal((await allChanges(store, before)).changes.map(key), [`${A}/content/cnt_1`])
  })

  s('changes come in commit order, in batches of the limit, and by tenant when asked', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.createTenant(aTenant(B))
    const start = await store.feedPosition()
    const expected: string[] = []
    for (let i = 0; i < 7; i++) {
      const tenant = i % 2 === 0 ? A : B
      await store.transaction((tx) => tx.putCategory(aCategory(tenant, `cat_${i}`)))
      expected.push(`${tenant}/category/cat_${i}`)
    }
    const first = await store.readChanges(start, 3)
    assert.ok(first)
    assert.is(first.changes.length, 3)
    assert.is(first.more, true)
    assert.equal((await allChanges(store, start, 3)).changes.map(key), expected)
    assert.equal((await allChanges(store, start, 2, B)).changes.map(key), expected.filter((k) => k.startsWith(`${B}/`)))
  })

  s('a position the store never made is answered with null', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.transaction((tx) => tx.putCategory(aCategory(A, 'cat_1')))
    for (const foreign of ['', 'nonsense', '999999999', '-1', '1.zzzzzzzzzzzz', '999999.000000000000', 'x'.repeat(500)]) {
      assert.is(await store.readChanges(foreign, 10), null, `position ${JSON.stringify(foreign.slice(0, 20))}`)
    }
  })

  s('the position of an empty store reads every later change', async ({ store }) => {
    const empty = await store.feedPosition()
    await store.createTenant(aTenant(A))
    await store.transaction((tx) => tx.putCategory(aCategory(A, 'cat_1')))
    assert.equal((await allChanges(store, empty)).changes.map(key), [`${A}/category/cat_1`])
  })

  s('an observer sees every write of its transaction and the position the feed will stand at', async ({ store }) => {
    await store.createTenant(aTenant(A))
    const seen: string[] = []
    let committingAt: string | null = null
    let categoriesAtCommit: string[] = []
    const observer: TransactionObserver = {
      begun: () => { seen.push('begun') },
      content: (record: ContentRecord) => { seen.push(`content ${record.id}`) },
      contentDeleted: (_tenantId: string, id: string) => { seen.push(`deleted ${id}`) },
      category: (record: CategoryRecord) => { seen.push(`category ${record.id}`) },
      tag: (record: TagRecord) => { seen.push(`tag ${record.id}`) },
      committing: async (tx, position) => {
        committingAt = position
        categoriesAtCommit = (await tx.listCategories(A)).map((c) => c.id)
      },
    }
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1'))
      await tx.putTag(aTag(A, 'tag_1'))
      await tx.putContent(aContent(A, 'cnt_1', 'cat_1'))
      await tx.deleteContent(A, 'cnt_1')
    }, { observer, bulk: true })
    assert.equal(seen, ['begun', 'category cat_1', 'tag tag_1', 'content cnt_1', 'deleted cnt_1'])
    assert.is(committingAt, await store.feedPosition())
    assert.equal(categoriesAtCommit, ['cat_1'])
  })

  s('a bulk transaction commits the same records as a plain one, all or nothing', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1'))
      await tx.putContent(aContent(A, 'cnt_1', 'cat_1'))
      throw new Error('roll back')
    }, { bulk: true }).catch(() => undefined)
    assert.is(await store.getContent(A, 'cnt_1'), null)
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1'))
      for (let i = 0; i < 30; i++) await tx.putContent(aContent(A, `cnt_${String(i).padStart(2, '0')}`, 'cat_1'))
    }, { bulk: true })
    const listed = await store.listContents(A, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 100 })
    assert.is(listed.length, 30)
    assert.is((await store.getContentBySlug(A, 'slug-cnt_07'))?.id, 'cnt_07')
  })

  s('two processes committing out of order: a reader that saw the later commit still gets the earlier one', async ({ store, otherProcess }) => {
    // Hint: a store numbering changes with a sequence taken before COMMIT fails this: the first
    // transaction holds number 1 uncommitted while the second commits number 2, a reader moves
    // to 2, and number 1, committed next, is behind it for ever.
    const second = await otherProcess()
    if (second === null) return // The adapter opens one handle only (every writer is in this process).
    // Hint: two tenants, so that no row both write (a tenant's revision) orders them by itself.
    await store.createTenant(aTenant(A))
    await store.createTenant(aTenant(B))
    const start = await store.feedPosition()
    let release = (): void => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let atCommit = (): void => {}
    const reachedCommit = new Promise<void>((resolve) => (atCommit = resolve))
    const observer: TransactionObserver = {
      begun: () => {}, content: () => {}, contentDeleted: () => {}, category: () => {}, tag: () => {},
      committing: async () => {
        atCommit()
        await held
      },
    }
    const first = store.transaction((tx) => tx.putCategory(aCategory(A, 'cat_early')), { observer })
    await reachedCommit
    const late = second.transaction((tx) => tx.putCategory(aCategory(B, 'cat_late')))
    // A store that orders its writers makes the second wait for the first; give it time to commit if it does not.
    await Promise.race([late.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 300))])
    const visible = await allChanges(second, start)
    release()
    await Promise.all([first, late])
    const later = await allChanges(second, visible.position)
    const seen = [...visible.changes, ...later.changes].map(key)
    assert.ok(seen.includes(`${A}/category/cat_early`), `the earlier commit is read (read: ${seen.join(', ')})`)
    assert.ok(seen.includes(`${B}/category/cat_late`), 'the later commit is read')
  })

  s('ping resolves on an open store', async ({ store }) => {
    await store.ping()
    assert.ok(store.capabilities.scope === 'machine' || store.capabilities.scope === 'network')
  })
  s.run()
}

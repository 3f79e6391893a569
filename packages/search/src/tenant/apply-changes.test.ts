import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CategoryRecord, ContentRecord } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant, fuzzOptions } from '@frontdesk/core/testing'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { decodeSnapshot, encodeSnapshot } from '../snapshots/snapshot-codec.ts'
import { applyChanges, prepareChanges } from './apply-changes.ts'
import { TenantSearchIndex } from './tenant-index.ts'

const words = ['harbour', 'light', 'keeper', 'museum', 'the', '東京都', '港町', 'café']
const text = fc.array(fc.constantFrom(...words), { maxLength: 6 }).map((chosen) => chosen.join(' '))
const { runs, seed, path: replay } = fuzzOptions(30)
const noteField = (type: 'text' | 'number') => [{ id: 'f_note', name: 'note', type, required: false }]

type Step =
  | { kind: 'edit'; item: number; title: string; note: string; tag: number | null; category: number }
  | { kind: 'delete'; item: number }
  | { kind: 'tag'; tag: number; name: string }
  | { kind: 'category'; category: number; searched: boolean }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('edit' as const), item: fc.nat(11), title: text, note: text, tag: fc.option(fc.nat(1)), category: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), item: fc.nat(11) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tag' as const), tag: fc.nat(1), name: text }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('category' as const), category: fc.nat(1), searched: fc.boolean() }) },
)

/** The index as the bytes of its snapshot: every term, posting, item and category. */
const bytesOf = (index: TenantSearchIndex) => Buffer.concat(encodeSnapshot('0', index.toSnapshot())).toString('base64')

test('changes applied with what was read and analysed beforehand make the index the changes read then make, or else the item is analysed again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-apply-changes-'))
  let run = 0
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 14 }), fc.constantFrom('same', 'none', 'stale'), async (steps, given) => {
        const store = openSqliteStore({ path: join(dir, `${++run}.sqlite`) })
        try {
          await store.createTenant(aTenant('t1'))
          const categories = [aCategory('t1', 'cat_0', { fields: noteField('text') }), aCategory('t1', 'cat_1', { fields: noteField('number') })]
          const tags = [aTag('t1', 'tag_0', 'alpha'), aTag('t1', 'tag_1', 'beta')]
          const items: ContentRecord[] = Array.from({ length: 10 }, (_, i) =>
            aContent('t1', `c${i}`, `cat_${i % 2}`, { title: `the ${words[i % words.length] ?? ''}`, tags: [tags[i % 2] ?? aTag('t1', 'tag_0')], fields: { f_note: `note ${i}` } }),
          )
          await store.transaction(async (tx) => {
            for (const category of categories) await tx.putCategory(category)
            for (const tag of tags) await tx.putTag(tag)
            for (const item of items) await tx.putContent(item)
          })
          const base = await store.feedPosition()
          // Two indexes as a start restores them, over the same categories (the very records, as a delta's).
          const restored = () => {
            const built = new TenantSearchIndex(categories)
            for (const item of items) built.upsert(item)
            const file = decodeSnapshot(Buffer.concat(encodeSnapshot('0', built.toSnapshot())))
            if (file === null) throw new Error('the snapshot does not read back')
            return new TenantSearchIndex(categories, file.tenant)
          }
          const read = restored()
          const prepared = restored()
          for (const step of steps) {
            await store.transaction(async (tx) => {
              if (step.kind === 'edit') {
                const tag = step.tag === null ? [] : [tags[step.tag] ?? aTag('t1', 'tag_0')]
                await tx.putContent(aContent('t1', `c${step.item}`, `cat_${step.category}`, { title: step.title, tags: tag, fields: { f_note: step.note } }))
              } else if (step.kind === 'delete') {
                await tx.deleteContent('t1', `c${step.item}`)
              } else if (step.kind === 'tag') {
                // Hint: tag names are unique in a tenant.
                const renamed = aTag('t1', `tag_${step.tag}`, `${step.name} t${step.tag}`.trim())
                tags[step.tag] = renamed
                await tx.putTag(renamed)
              } else {
                await tx.putCategory(aCategory('t1', `cat_${step.category}`, { fields: noteField(step.searched ? 'text' : 'number') }))
              }
            })
          }
          const batch = await store.readChanges(base, 1000, 't1')
          if (batch === null) throw new Error('the feed does not reach back')
          // `stale`: records of the categories as they are not in the index (the other fields' kind): no analysed terms of theirs may be used.
          const stale: CategoryRecord[] = categories.map((category, i) => aCategory('t1', category.id, { fields: noteField(i === 0 ? 'number' : 'text') }))
          const ahead = await prepareChanges(store, 't1', batch.changes, 3, given === 'same' ? categories : given === 'stale' ? stale : null)
          await applyChanges(read, store, 't1', batch.changes, 3)
          await applyChanges(prepared, store, 't1', batch.changes, 3, ahead)
          assert.is(bytesOf(prepared), bytesOf(read))
        } finally {
          await store.close()
        }
      }),
      { numRuns: runs, seed, ...(replay === undefined ? {} : { path: replay }) },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

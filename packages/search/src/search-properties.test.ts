import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ContentRecord, QueryTerm, SearchQuery, SearchSort } from '@frontdesk/core'
import { matchesSearch, parseQueryTerms, stripHtml, tokenize, wordMatches } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant } from '@frontdesk/core/testing'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from './search-engine.ts'

const WORDS = ['alpha', 'alpine', 'alps', 'beta', 'betta', 'gamma', 'delta', '東京都', '京都', 'オフィス移転', 'お知らせ', '서울']
const QUERIES = ['alp', 'alpha', 'alpah', 'alpga', 'gammma', 'betta', 'beta', 'gamma delta', '京都', '東京', '移転', 'お知らせ', '京', 'alpine 東京', '서울', 'zeta']
const NOW = '2025-07-01T00:00:00.000Z'

const text = fc.array(fc.constantFrom(...WORDS, 'the', 'and', '、'), { minLength: 0, maxLength: 6 }).map((words) => words.join(' '))
const item = fc.record({
  title: text,
  summary: text,
  body: text.map((t) => `<p>${t}</p>`),
  status: fc.constantFrom('published', 'published', 'published', 'draft'),
  day: fc.integer({ min: 1, max: 60 }),
  category: fc.constantFrom('on', 'on', 'off'),
  tags: fc.subarray(['x', 'y', 'z']),
  price: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
})
const sort = fc.constantFrom<SearchSort>(
  { kind: 'relevance' },
  { kind: 'published_at', direction: 'asc' },
  { kind: 'published_at', direction: 'desc' },
  { kind: 'field', fieldIds: ['f_price'], direction: 'asc' },
  { kind: 'field', fieldIds: ['f_price'], direction: 'desc' },
)
const scenario = fc.record({
  items: fc.array(item, { minLength: 1, maxLength: 25 }),
  query: fc.constantFrom(...QUERIES),
  sort,
  size: fc.integer({ min: 1, max: 7 }),
  tags: fc.option(fc.subarray(['x', 'y', 'z'], { minLength: 1 }), { nil: null }),
  minPrice: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
})

/** CONTRACT §5 term semantics, checked by brute force over an item's analysed fields: how many of the terms the item matches. */
function oracleMatches(record: ContentRecord, terms: QueryTerm[]): number {
  const tokens = [record.title, record.summary, stripHtml(record.body), ...record.tags.map((tag) => tag.name)].flatMap((t) => tokenize(t))
  return terms.filter((term) =>
    term.kind === 'word'
      ? tokens.some((token) => !token.cjk && wordMatches(term, token.term))
      : term.grams.every((gram) => tokens.some((token) => token.cjk && (term.prefix ? token.term.startsWith(gram) : token.term === gram))),
  ).length
}

/** The items having every term, or when none does, those having the most (no dead ends). */
function most<T>(candidates: T[], matched: (candidate: T) => number): T[] {
  const counts = candidates.map(matched)
  const best = Math.max(0, ...counts)
  return best === 0 ? [] : candidates.filter((_, i) => counts[i] === best)
}

test('the engine matches exactly what the contract says, and a walk over pages returns total items once each', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-search-prop-'))
  const store = openSqliteStore({ path: join(dir, 'p.db') })
  const search = createSearchEngine({ store })
  let run = 0
  try {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const tenantId = `t${run++}`
        await store.createTenant(aTenant(tenantId))
        const on = aCategory(tenantId, 'on', { fields: [{ id: 'f_price', name: 'price', type: 'number', required: false }] })
        const off = aCategory(tenantId, 'off', { active: false })
        const records = s.items.map((it, i) =>
          aContent(tenantId, `c${String(i).padStart(2, '0')}`, it.category, {
            title: it.title, summary: it.summary, body: it.body, status: it.status as 'published' | 'draft',
            published_at: new Date(Date.parse('2025-06-01T00:00:00.000Z') + it.day * 86_400_000).toISOString(),
            tags: it.tags.map((name) => aTag(tenantId, `tag_${name}`, name)),
            fields: it.price === undefined ? {} : { f_price: it.price },
          }),
        )
        await store.transaction(async (tx) => {
          await tx.putCategory(on)
          await tx.putCategory(off)
          for (const name of ['x', 'y', 'z']) await tx.putTag(aTag(tenantId, `tag_${name}`, name))
          for (const record of records) await tx.putContent(record)
        })
        const filters = s.minPrice === null ? [] : [{ key: 'custom_price', byFieldId: new Map([['f_price', { gte: s.minPrice }]]) }]
        const base: SearchQuery = { terms: parseQueryTerms(s.query), now: NOW, categoryId: null, tags: s.tags, filters, sort: s.sort, from: 0, size: 100 }

        const expected = most(
          records.filter((r) => matchesSearch({ ...r, tags: r.tags.map((t) => t.name) }, r.category_id === 'on', base)),
          (r) => oracleMatches(r, base.terms),
        )
          .map((r) => r.id)
          .sort()
        const all = await search.search(tenantId, base)
        assert.equal(all.hits.map((h) => h.id).sort(), expected, `query ${s.query}`)
        assert.is(all.total, expected.length)

        const walked: string[] = []
        for (let from = 0; from < all.total; from += s.size) {
          const page = await search.search(tenantId, { ...base, from, size: s.size })
          assert.is(page.total, all.total)
          walked.push(...page.hits.map((h) => h.id))
        }
        assert.equal(walked, all.hits.map((h) => h.id))
      }),
      { numRuns: 40 },
    )
  } finally {
    await search.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { listSynonyms, setSynonyms } from '../admin/synonyms.ts'
import { createFrontdesk } from '../app/frontdesk.ts'
import type { Principal } from '../auth/principal.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { Store } from '../port/store.ts'
import { aCategory, aContent, anApiKey, aTenant } from '../testing/fixtures.ts'
import { fuzzOptions } from '../testing/fuzz-options.ts'
import { createMemoryStore } from '../testing/memory/memory-store.ts'
import { SYNONYM_LINES } from '../testing/search/random-scenario.ts'
import { createScanSearch } from '../testing/search/scan-search.ts'
import { termsKey } from './highlight-memo.ts'
import type { QueryTerm } from './query-terms.ts'
import { MATCH_WEIGHTS, parseQuery } from './query-terms.ts'
import { searchQueryKey } from './search-query-key.ts'
import { formatSynonymGroup, parseSynonymLines, parseSynonyms, SYNONYM_LIMITS, synonymSetOf, withSynonyms } from './synonyms.ts'

const rules = suite('synonym rules')

/** The message of the `UsageError` that parsing `text` throws (fails when it does not throw one). */
function refusal(text: string): string {
  try {
    parseSynonyms(text)
  } catch (error) {
    assert.instance(error, UsageError)
    return (error as Error).message
  }
  assert.unreachable(`accepted: ${JSON.stringify(text.slice(0, 80))}`)
  return ''
}

/** What each query word of `query` finds by synonym, as the words of each synonym. */
function found(text: string, query: string): string[][][] {
  const set = synonymSetOf(parseSynonyms(text).map(formatSynonymGroup))
  return withSynonyms(parseQuery(query).terms, set).map((term) => (term.synonyms ?? []).map((terms) => terms.map((t) => (t.kind === 'word' ? t.term : t.text))))
}

rules('two-way groups find each other, one-way groups only forward, one step, after normalisation', () => {
  const text = ['# comment', '', '  Car, automobile , AUTO  ', 'nyc => New   York', 'コンピューター, パソコン', 'a1 => b1', 'b1 => c1, a1'].join('\n')
  assert.equal(found(text, 'car'), [[['automobile'], ['auto']]])
  assert.equal(found(text, 'Auto'), [[['car'], ['automobile']]])
  assert.equal(found(text, 'nyc'), [[['new', 'york']]])
  assert.equal(found(text, 'york'), [[]])
  // Normalised on both sides: the long-vowel mark and hiragana fold as the analyzer folds them.
  assert.equal(found(text, 'ぱそこん'), [[['コンピュータ']]])
  assert.equal(found(text, 'コンピュータ'), [[['パソコン']]])
  // One step: a1 finds b1, never c1 through it; the loop back to a1 adds nothing (each also finds its parts apart, first).
  assert.equal(found(text, 'a1'), [[['a', '1'], ['b1']]])
  assert.equal(found(text, 'b1'), [[['b', '1'], ['c1'], ['a1']]])
  // Synonym terms match as typed: no typos, no other word forms.
  const [car] = withSynonyms(parseQuery('car').terms, synonymSetOf(['car, automobile']))
  assert.equal(car?.synonyms?.[0], [{ kind: 'word', term: 'automobile', fuzzy: 0, stem: null, joined: null }])
})

rules('groups are stored as canonical lines, and stored lines read back as the same groups', () => {
  const groups = parseSynonyms('  a ,b\nx,y=>  z  w \n')
  assert.equal(groups, [{ kind: 'two-way', entries: ['a', 'b'] }, { kind: 'one-way', from: ['x', 'y'], to: ['z w'] }])
  const lines = groups.map(formatSynonymGroup)
  assert.equal(lines, ['a, b', 'x, y => z w'])
  assert.equal(parseSynonymLines(lines), groups)
  assert.equal(parseSynonyms(''), [])
})

rules('a synonym ranks below the word as typed and above its other forms', () => {
  assert.ok(MATCH_WEIGHTS.exact > MATCH_WEIGHTS.synonym && MATCH_WEIGHTS.synonym > MATCH_WEIGHTS.stem)
})

rules('every bad group is one clear error naming its line', () => {
  assert.match(refusal('a, b\n, \n'), /^synonyms: line 2: has an empty entry/)
  assert.match(refusal('a,,b'), /line 1: has an empty entry/)
  assert.match(refusal('=> b'), /line 1: has nothing before "=>"/)
  assert.match(refusal('a =>'), /line 1: has nothing after "=>"/)
  assert.match(refusal('a => b => c'), /more than one "=>"/)
  assert.match(refusal('a, !!!'), /"!!!" has no word/)
  assert.match(refusal('🎉, party'), /"🎉" has no word/)
  assert.match(refusal('car, Car'), /names only one word/)
  assert.match(refusal('a => a, A'), /adds nothing/)
  assert.match(refusal('nyc, new york'), /"new york" is several words/)
  assert.match(refusal('new york => nyc'), /"new york" is several words: only an entry right of "=>"/)
  assert.match(refusal('e-mail, email'), /"e-mail" is several words/)
  assert.match(refusal('a => one two three four five'), /more than 4 words/)
  assert.match(refusal(`a, ${'b'.repeat(101)}`), /longer than 100 characters/)
  assert.match(refusal(Array.from({ length: 33 }, (_, i) => `w${i}`).join(', ')), /more than 32 entries/)
  assert.match(refusal('a, b\u0000'), /U\+0000/)
  // A word finding too many others over all its groups, and a file of too many lines.
  assert.match(refusal(Array.from({ length: 17 }, (_, i) => `hub => w${i}`).join('\n')), /"hub" would find more than 16 other entries/)
  const started = process.hrtime.bigint()
  assert.match(refusal('a, b\n'.repeat(100_000)), /^synonyms: the file has 100000 lines, more than the 10000 allowed/)
  assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 200, 'a 100,000-line file is refused without reading its groups')
})

rules('a file at the bounds parses within a bounded time', () => {
  const text = Array.from({ length: SYNONYM_LIMITS.lines }, (_, i) => `w${i}, v${i}, u${i}`).join('\n')
  const started = process.hrtime.bigint()
  assert.is(parseSynonyms(text).length, SYNONYM_LIMITS.lines)
  assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 3000)
})

rules('random text is parsed or refused with one UsageError, never anything else', () => {
  const piece = fc.oneof(
    fc.constantFrom(',', '=>', '=', '>', '#', '\n', '\r\n', ' ', '、', '-', '"', 'car', 'Car', 'auto', 'new york', 'コンピューター', 'ぱそこん', '東京', '京', 'e-mail', '🎉', '\u0000', '\ud800'),
    fc.string({ maxLength: 6 }),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const text = pieces.join('')
      let groups
      try {
        groups = parseSynonyms(text)
      } catch (error) {
        if (!(error instanceof UsageError) || !/^synonyms: /.test(error.message) || error.message.includes('\n')) throw error
        return
      }
      // What was accepted reads back the same from its stored lines, and expands any query without growing.
      const lines = groups.map(formatSynonymGroup)
      assert.equal(parseSynonymLines(lines), groups)
      const set = synonymSetOf(lines)
      for (const term of withSynonyms(parseQuery(text).terms, set)) {
        assert.ok((term.synonyms?.length ?? 0) <= SYNONYM_LIMITS.perWord)
        for (const synonym of term.synonyms ?? []) for (const t of synonym) assert.is(t.synonyms, undefined)
      }
    }),
    fuzzOptions(300),
  )
})

rules('every memo key of a search tells a query with synonyms from one without, and one set from another', () => {
  const plain = parseQuery('car').terms
  const one = withSynonyms(plain, synonymSetOf(['car, automobile']))
  const other = withSynonyms(plain, synonymSetOf(['car, truck']))
  const query = (terms: QueryTerm[]) => ({ terms, now: '2030-01-01T00:00:00.000Z', categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' as const }, from: 0, size: 10 })
  assert.is(new Set([searchQueryKey(query(plain)), searchQueryKey(query(one)), searchQueryKey(query(other))]).size, 3)
  assert.is(new Set([termsKey(plain), termsKey(one), termsKey(other)]).size, 3)
  assert.is(withSynonyms(plain, synonymSetOf([])), plain, 'no synonyms: the very same terms')
})

rules('the differential scenarios synonym lines are valid', () => {
  assert.is(parseSynonymLines(SYNONYM_LINES).length, SYNONYM_LINES.length)
})

rules.run()

interface World {
  store: Store
  principal: Principal
}

const searching = suite<World>('searching with synonyms')

searching.before.each(async (ctx) => {
  ctx.store = createMemoryStore()
  const tenant = aTenant('t1')
  await ctx.store.createTenant(tenant)
  await ctx.store.createTenant(aTenant('t2'))
  ctx.principal = { tenant, key: anApiKey('t1', 'key_1') }
  await ctx.store.transaction(async (tx) => {
    await tx.putCategory(aCategory('t1', 'news'))
    await tx.putContent(aContent('t1', 'c1', 'news', { title: 'Buying an automobile' }))
    await tx.putContent(aContent('t1', 'c2', 'news', { title: 'The car park' }))
    await tx.putContent(aContent('t1', 'c3', 'news', { title: 'Flights to New York', summary: 'Cheap flights, new routes' }))
    await tx.putContent(aContent('t1', 'c4', 'news', { title: 'A new yoga class' }))
    await tx.putContent(aContent('t1', 'c5', 'news', { title: 'ノートパソコンの選び方', summary: 'パソコンを買う' }))
  })
})

searching.after.each(async (ctx) => {
  await ctx.store.close()
})

function app(ctx: World) {
  return createFrontdesk({ store: ctx.store, search: createScanSearch(ctx.store), clock: { now: () => Date.parse('2030-01-01T00:00:00Z') } })
}

searching('a set applies at the next search, ranks below the word as typed, is highlighted, and is the tenant\'s own', async (ctx) => {
  const frontdesk = app(ctx)
  const ids = async (query: string) => (await frontdesk.search(ctx.principal, { query })).body.items.map((item) => item.id)
  assert.equal(await ids('car'), ['c2'])
  const revision = await ctx.store.revision('t1')
  assert.equal(await setSynonyms(frontdesk.context, { tenantCode: 't1', text: 'car, automobile\nnyc => new york\nコンピューター, パソコン' }), { tenant: 't1', groups: 3 })
  // The change moves the tenant's revision: every memo and cache keyed on it answers afresh.
  assert.ok((await ctx.store.revision('t1')) > revision)
  assert.equal(await ids('car'), ['c2', 'c1'])
  assert.equal(await ids('automobile'), ['c1', 'c2'])
  // A multi-word synonym needs all its words: the yoga class has "new" only.
  assert.equal(await ids('nyc'), ['c3'])
  assert.equal(await ids('こんぴゅーたー'), ['c5'])
  const [found] = (await frontdesk.search(ctx.principal, { query: 'nyc' })).body.items
  assert.equal(found?.highlight.title, ['Flights to <em>New</em> <em>York</em>'])
  const byCar = (await frontdesk.search(ctx.principal, { query: 'car' })).body.items
  assert.equal(byCar[1]?.highlight.title, ['Buying an <em>automobile</em>'])
  // Another tenant's searches never see them.
  assert.equal(await listSynonyms(frontdesk.context, 't2'), [])
  // Replaced whole: the old groups are gone.
  await setSynonyms(frontdesk.context, { tenantCode: 't1', text: 'auto => automobile' })
  assert.equal(await ids('car'), ['c2'])
  assert.equal((await listSynonyms(frontdesk.context, 't1')).map((group) => group.line), ['auto => automobile'])
})

searching('a refused file changes nothing', async (ctx) => {
  const frontdesk = app(ctx)
  await setSynonyms(frontdesk.context, { tenantCode: 't1', text: 'car, automobile' })
  const revision = await ctx.store.revision('t1')
  const error = await setSynonyms(frontdesk.context, { tenantCode: 't1', text: 'car, bus\n,' }).catch((e: unknown) => e)
  assert.instance(error, UsageError)
  assert.is(await ctx.store.revision('t1'), revision)
  assert.equal((await listSynonyms(frontdesk.context, 't1')).map((group) => group.line), ['car, automobile'])
  const unknown = await setSynonyms(frontdesk.context, { tenantCode: 'nope', text: 'a, b' }).catch((e: unknown) => e)
  assert.match((unknown as Error).message, /Unknown tenant: nope/)
})

searching.run()

import * as assert from 'uvu/assert'
import type { SearchPort } from '../../../port/search.ts'
import type { Store } from '../../../port/store.ts'
import { aCategory, aContent } from '../../fixtures.ts'
import { aSearchQuery, hitIds, hitSet, seedSearch } from '../search-fixtures.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'

const T = 'ten_u'
const blank = { summary: '', body: '', author_name: 'Ann Author' }

/** A small English and Japanese site, as visitors search it. */
async function seedSite(store: Store): Promise<void> {
  await seedSearch(store, T, [aCategory(T, 'cat_news')], [
    aContent(T, 'u1', 'cat_news', { ...blank, title: 'What we learned this year', body: '<p>Notes on the database migration.</p>' }),
    aContent(T, 'u2', 'cat_news', { ...blank, title: 'Learning resources', summary: 'Guides for new staff' }),
    aContent(T, 'u3', 'cat_news', { ...blank, title: 'COVID-19 measures at the office', summary: 'Contact us by e-mail' }),
    aContent(T, 'u4', 'cat_news', { ...blank, title: 'Migrating to the new email system' }),
    aContent(T, 'u5', 'cat_news', { ...blank, title: 'コンピュータの使い方', summary: 'プライバシーポリシーを改定しました' }),
    aContent(T, 'u6', 'cat_news', { ...blank, title: 'ソフトウェア・エンジニアを募集します', body: '<p>人々の暮らしを支える仕事です</p>' }),
    aContent(T, 'u7', 'cat_news', { ...blank, title: 'サーバー管理', summary: 'データーの移行' }),
    aContent(T, 'u8', 'cat_news', { ...blank, title: 'Lernen mit uns', summary: 'a tall tower' }),
  ])
}

/**
 * What visitors type (issue 29): word forms, compounds, Japanese spelling variants and
 * sentences of which one word matches nothing. Every engine must find what core's rules find.
 */
export function understandingCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search understands what visitors type`, pairing)
  const find = async (search: SearchPort, text: string): Promise<string[]> => hitSet(await search.search(T, aSearchQuery(text)))

  s('English word forms are found by their stem, the exact form ranked first', async ({ store, search }) => {
    await seedSite(store)
    assert.equal(await find(search, 'learning'), ['u1', 'u2'])
    assert.equal(await find(search, 'learned'), ['u1', 'u2'])
    assert.equal(await find(search, 'migrating'), ['u1', 'u4'])
    assert.equal(await find(search, 'migration'), ['u1', 'u4'])
    assert.equal(hitIds(await search.search(T, aSearchQuery('learned'))), ['u1', 'u2'], 'the exact form first')
    assert.equal(hitIds(await search.search(T, aSearchQuery('learning'))), ['u2', 'u1'], 'the exact form first')
  })

  s('a compound is found joined, split or as written', async ({ store, search }) => {
    await seedSite(store)
    for (const query of ['covid19', 'covid-19', 'COVID 19', 'covid_19']) assert.equal(await find(search, query), ['u3'], query)
    assert.equal(await find(search, 'email'), ['u3', 'u4'])
    assert.equal(await find(search, 'e-mail'), ['u3', 'u4'])
  })

  s('a word of letters and digits is found written apart; words typed apart are found joined', async ({ store, search }) => {
    await seedSite(store)
    await seedSearch(store, T, [], [
      aContent(T, 'u14', 'cat_news', { ...blank, title: 'The iPhone 15 review' }),
      aContent(T, 'u15', 'cat_news', { ...blank, title: 'iPhone15 cases on sale' }),
      aContent(T, 'u16', 'cat_news', { ...blank, title: 'Free WiFi in the lobby' }),
      aContent(T, 'u17', 'cat_news', { ...blank, title: 'Xray screening days' }),
    ])
    assert.equal(await find(search, 'iphone15'), ['u14', 'u15'])
    assert.equal(await find(search, 'iphone 15'), ['u14', 'u15'])
    assert.equal(hitIds(await search.search(T, aSearchQuery('iphone15'))), ['u15', 'u14'], 'as typed first')
    assert.equal(hitIds(await search.search(T, aSearchQuery('iphone 15'))), ['u14', 'u15'], 'as typed first')
    assert.equal(await find(search, 'x ray screening'), ['u17'], 'one character and its neighbour joined')
    assert.equal(await find(search, 'wi fi'), ['u16'], 'two longer words are not joined: the item having most of them')
    assert.equal(await find(search, 'wi-fi lobby'), ['u16'])
    assert.equal(await find(search, 'e mail'), ['u3', 'u4'], 'u4 writes email, u3 e-mail')
    assert.equal(await find(search, '"x ray"'), [], 'quoted: as written')
  })

  s('Japanese spelling variants are one word', async ({ store, search }) => {
    await seedSite(store)
    assert.equal(await find(search, 'コンピューター'), ['u5'], 'a trailing long-vowel mark')
    assert.equal(await find(search, 'サーバ'), ['u7'], 'the other way')
    assert.equal(await find(search, 'データ'), ['u7'])
    assert.equal(await find(search, 'ぷらいばしー'), ['u5'], 'hiragana for katakana')
    assert.equal(await find(search, 'ソフトウェアエンジニア'), ['u6'], 'a middle dot inside a katakana compound')
    assert.equal(await find(search, 'ソフトウェア　エンジニア'), ['u6'])
    assert.equal(await find(search, '人々'), ['u6'], 'the iteration mark')
  })

  s('katakana words typed with a space between them are two words, quoted one run', async ({ store, search }) => {
    await seedSite(store)
    assert.equal(await find(search, 'コンピュータ プライバシー'), ['u5'], 'each found where it stands (title and summary)')
    assert.equal(await find(search, 'ぷらいばしー　こんぴゅーたー'), ['u5'], 'an ideographic space, hiragana, long-vowel marks')
    assert.equal(await find(search, 'エンジニア サーバ'), ['u6', 'u7'], 'no item has both: those having one')
    assert.equal(await find(search, '"コンピュータ プライバシー"'), [], 'quoted: as written, side by side')
  })

  s('a long-vowel mark inside a katakana compound typed without a separator may end its first word', async ({ store, search }) => {
    await seedSite(store)
    await seedSearch(store, T, [], [
      aContent(T, 'u9', 'cat_news', { ...blank, title: 'プライバシー・ポリシー' }),
      aContent(T, 'u10', 'cat_news', { ...blank, title: 'コンピュータシステムの導入' }),
    ])
    assert.equal(await find(search, 'プライバシーポリシー'), ['u5', 'u9'], 'the separator and the mark before it: written together (u5) or apart (u9)')
    assert.equal(await find(search, 'ぷらいばしーぽりしー'), ['u5', 'u9'], 'in hiragana too')
    assert.equal(await find(search, 'コンピューターシステム'), ['u10'], 'the JIS spelling of the first word')
    assert.equal(hitIds(await search.search(T, aSearchQuery('プライバシーポリシー'))), ['u5', 'u9'], 'as typed first')
    assert.equal(await find(search, '"プライバシーポリシー"'), ['u5'], 'quoted: as written')
  })

  s('a long-vowel mark inside a katakana compound written without a separator is optional, in the document too', async ({ store, search }) => {
    await seedSite(store)
    await seedSearch(store, T, [], [
      aContent(T, 'u11', 'cat_news', { ...blank, title: 'ユーザーインターフェースの改善' }),
      aContent(T, 'u12', 'cat_news', { ...blank, title: 'ユーザインタフェース設計' }),
      aContent(T, 'u13', 'cat_news', { ...blank, title: 'ユーザー・インタフェース' }),
    ])
    for (const query of ['ユーザーインターフェース', 'ユーザインタフェース', 'ユーザーインタフェース', 'ゆーざいんたーふぇーす']) {
      assert.equal(await find(search, query), ['u11', 'u12', 'u13'], `${query}: every mix of marks written and left out`)
    }
    assert.equal(hitIds(await search.search(T, aSearchQuery('ユーザーインターフェース'))).slice(0, 1), ['u11'], 'as typed first')
    assert.equal(await find(search, '"ユーザインタフェース"'), ['u12', 'u13'], 'quoted: as written (a mark before a separator ends its word anyway)')
    assert.equal(await find(search, 'インタフェース 改善'), ['u11'])
  })

  s('a question typed as a sentence finds the items with most of its words, all of them first', async ({ store, search }) => {
    await seedSite(store)
    assert.equal(await find(search, 'how to contact the office'), ['u3'], 'one item has office, contact and the: the most')
    assert.equal(await find(search, 'zebra learning'), ['u1', 'u2'], 'a word nothing has does not empty the answer')
    const result = await search.search(T, aSearchQuery('zebra quagga'))
    assert.equal(result, { total: 0, hits: [] }, 'nothing has any word')
  })

  s('-word leaves out the items having it; a lone -, quotes and a - inside a word are plain text', async ({ store, search }) => {
    await seedSite(store)
    assert.equal(await find(search, 'learning -database'), ['u2'])
    assert.equal(await find(search, 'learning -DATABASES -nothing'), ['u2'], 'an excluded word matches as any word does (prefix, stem)')
    assert.equal(await find(search, 'email -covid-19'), ['u4'], 'a compound excluded')
    assert.equal(await find(search, 'ソフトウェア -募集'), [], 'a Japanese run excluded')
    assert.equal(await find(search, 'learning - database'), ['u1'], 'a lone - is punctuation: both words, u1 has them')
    assert.equal(await find(search, '"learned this'), ['u1'], 'an unbalanced quote is punctuation')
    assert.equal(await search.search(T, aSearchQuery('"" -')), { total: 0, hits: [] }, 'syntax only: nothing to find')
    assert.equal(await find(search, 'covid-19'), ['u3'], 'a - inside a word joins it')
    assert.equal(await search.search(T, aSearchQuery('-learning')), { total: 0, hits: [] }, 'only excluded words: nothing to find')
  })

  s('"a phrase" finds its words side by side and in order, English and Japanese', async ({ store, search }) => {
    await seedSite(store)
    assert.equal(await find(search, '"learned this"'), ['u1'])
    assert.equal(await find(search, '"this learned"'), [], 'in order')
    assert.equal(await find(search, '"we year"'), [], 'side by side')
    assert.equal(await find(search, '"database migration" notes'), ['u1'], 'a phrase with other words')
    assert.equal(await find(search, '"learning"'), ['u2'], 'a quoted word as written: no other form of its stem, no longer word')
    assert.equal(await find(search, '"the office" covid'), ['u3'])
    assert.equal(await find(search, '"covid 19 measures"'), ['u3'], 'a compound as its words')
    assert.equal(await find(search, '"the new email"'), ['u4'])
    assert.equal(await find(search, '"new the"'), [])
    assert.equal(await find(search, '"zebra office" learned'), [], 'a phrase nothing holds empties the answer: quotes mean it must be there')
    assert.equal(await find(search, '"コンピューターの使い方"'), ['u5'], 'Japanese, with the analyzer\'s folding')
    assert.equal(await find(search, '"使い方コンピュータ"'), [], 'in order')
    assert.equal(await find(search, '"ぷらいばしーぽりしー"'), ['u5'], 'hiragana for katakana')
    assert.equal(await find(search, '"ポリシーを改定"'), ['u5'])
    assert.equal(await find(search, '"ソフトウェアエンジニア"'), ['u6'], 'a katakana separator does not break a phrase')
    assert.equal(await find(search, '"移行 データ"'), [], 'both words, not side by side: データーの移行')
    assert.equal(await find(search, '"learned this" -year'), [], 'with an excluded word')
  })

  s.run()
}

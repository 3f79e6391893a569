import { aCategory, aContent } from '@frontdesk/core/testing'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { TestServer } from './util/test-server.ts'
import { startTestServer, storeOf, titled } from './util/test-server.ts'

/*
 * A fixed set of visitor questions, English and Japanese, against a real server over HTTPS: each
 * is something a reader would call an obvious miss if it found nothing (issue 29). Each names
 * the items it must find first, and the highlight must mark the text as written.
 */

interface World {
  server: TestServer
  key: string
}

const test = suite<World>(titled('visitor questions over HTTPS', import.meta.url))

const ITEMS: [id: string, title: string, summary: string, body?: string][] = [
  ['v_learn', 'What we learned from the outage', 'A look back at the incident', '<p>We migrated the database afterwards.</p>'],
  ['v_course', 'Learning paths for new staff', 'Courses and mentoring'],
  ['v_migration', 'Database migration guide', 'Moving from the old cluster'],
  ['v_covid', 'COVID-19 measures at our offices', 'Masks are optional from June'],
  ['v_mail', 'How to contact us by e-mail', 'Our support address and hours'],
  ['v_computer', 'コンピュータの使い方講座', 'パソコン初心者向けの講座です'],
  ['v_privacy', 'プライバシーポリシー', '個人情報の取り扱いについて'],
  ['v_engineer', 'ソフトウェア・エンジニアを募集します', '経験者歓迎'],
  ['v_server', 'サーバー管理の手引き', 'データーのバックアップ方法'],
  ['v_people', '人々の暮らしを支える', '地域の取り組み'],
  ['v_cookie', 'クッキー・ポリシー', '当サイトでのクッキーの使い方'],
  ['v_ui', 'ユーザーインターフェースの改善', '管理画面を刷新しました'],
  ['v_phone', 'The iPhone 15 in our shop', 'Prices and colours'],
  ['v_wifi', 'Free WiFi in every room', 'Ask the front desk for the password'],
  ['v_xray', 'Xray screening at the clinic', 'Book a day'],
  ['v_windows', 'ウインドウズの設定', '3ヶ月ごとの点検'],
]

test.before(async (ctx) => {
  ctx.server = await startTestServer({ store: storeOf(import.meta.url) })
  const tenant = await ctx.server.tenant('site')
  ctx.key = await ctx.server.key('site', ['cms:search'])
  await ctx.server.store.transaction(async (tx) => {
    await tx.putCategory(aCategory(tenant.id, 'cat_news', { code: 'news' }))
    for (const [id, title, summary, body] of ITEMS) await tx.putContent(aContent(tenant.id, id, 'cat_news', { title, summary, body: body ?? '' }))
  })
})

test.after(async (ctx) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await ctx.server?.close()
})

// A question, the items it must find (in this order when `ordered`), and what its title highlight must mark.
const QUESTIONS: { query: string; finds: string[]; ordered?: boolean; marks?: string }[] = [
  { query: 'learning', finds: ['v_course', 'v_learn'], ordered: true, marks: 'learned' },
  { query: 'learned', finds: ['v_learn', 'v_course'], ordered: true },
  { query: 'migrating', finds: ['v_migration', 'v_learn'] },
  { query: 'how to learn about database migrations', finds: ['v_learn'], marks: 'learned' },
  { query: 'covid19', finds: ['v_covid'], marks: 'COVID-19' },
  { query: 'covid 19 office', finds: ['v_covid'] },
  { query: 'email support', finds: ['v_mail'], marks: 'e-mail' },
  { query: 'iphone15', finds: ['v_phone'], marks: 'iPhone' },
  { query: 'wi fi password', finds: ['v_wifi'], marks: 'WiFi' },
  { query: 'wi-fi', finds: ['v_wifi'] },
  { query: 'x ray clinic', finds: ['v_xray'], marks: 'Xray' },
  { query: 'コンピューター', finds: ['v_computer'], marks: 'コンピュータ' },
  { query: 'ぷらいばしー', finds: ['v_privacy'], marks: 'プライバシー' },
  { query: 'ソフトウェアエンジニア', finds: ['v_engineer'] },
  { query: 'サーバ管理', finds: ['v_server'] },
  { query: 'データ', finds: ['v_server'] },
  { query: '人々', finds: ['v_people'], marks: '人々' },
  { query: 'プライバシー 規約', finds: ['v_privacy'] },
  { query: 'ソフトウェア　エンジニア', finds: ['v_engineer'] },
  { query: 'コンピュータ パソコン', finds: ['v_computer'], marks: 'コンピュータ' },
  { query: 'クッキーポリシー', finds: ['v_cookie'] },
  { query: 'ユーザインタフェース', finds: ['v_ui'], marks: 'ユーザーインターフェース' },
  { query: 'ユーザーインタフェース 改善', finds: ['v_ui'] },
  { query: 'ウィンドウズ', finds: ['v_windows'], marks: 'ウインドウズ' },
  { query: 'ソフトウエアエンジニア', finds: ['v_engineer'] },
  { query: '3か月', finds: ['v_windows'] },
  // Phrases: the quoted words side by side and in order.
  { query: '"learned from the outage"', finds: ['v_learn'], marks: 'learned' },
  { query: '"the outage learned"', finds: [] },
  { query: '"database migration" guide', finds: ['v_migration'], marks: 'migration' },
  { query: '"migration database"', finds: [] },
  { query: '"contact us by e-mail"', finds: ['v_mail'] },
  { query: '"learned from', finds: ['v_learn'], marks: 'learned' },
  { query: '"コンピューターの使い方"', finds: ['v_computer'], marks: 'コンピュータの使い方' },
  { query: '"使い方 コンピュータ"', finds: [] },
  { query: '"データのバックアップ"', finds: ['v_server'] },
  { query: '“ソフトウェアエンジニア”', finds: ['v_engineer'] },
  { query: '"ユーザインタフェース"', finds: [] },
]

for (const question of QUESTIONS) {
  test(`"${question.query}" finds ${question.finds.join(', ')}`, async (ctx) => {
    const response = await ctx.server.request('POST', '/v1/cms/search', { headers: { 'x-api-key': ctx.key }, body: { query: question.query } })
    assert.is(response.status, 200)
    const ids: string[] = response.body.items.map((item: { id: string }) => item.id)
    if (question.ordered === true) assert.equal(ids, question.finds)
    else assert.equal([...ids].sort(), [...question.finds].sort())
    assert.is(response.body.pagination.total, question.finds.length)
    if (question.marks !== undefined) {
      const first = response.body.items.find((item: { id: string }) => item.id === question.finds.find((id) => ITEMS.some(([i, title]) => i === id && title.includes(question.marks ?? ''))))
      assert.ok(first !== undefined, 'an item whose title holds the marked text')
      assert.match(String(first.highlight.title), `<em>${question.marks}</em>`)
    }
  })
}

test('queries of syntax, symbols, emoji or one repeated character answer 200 quickly', async (ctx) => {
  for (const query of ['-', '""', '"', '" "', '- -', '"'.repeat(500), '" '.repeat(250), '!!!', '😀😀', 'あ'.repeat(500), 'a'.repeat(500), '-'.repeat(500), 'ー'.repeat(500), 'a1 '.repeat(166), 'x 1 '.repeat(125)]) {
    const started = performance.now()
    const response = await ctx.server.request('POST', '/v1/cms/search', { headers: { 'x-api-key': ctx.key }, body: { query } })
    assert.ok([200, 400].includes(response.status), `${query.slice(0, 10)}: ${response.status}`)
    assert.ok(performance.now() - started < 2000, `${query.slice(0, 10)}: took too long`)
  }
})

test.run()

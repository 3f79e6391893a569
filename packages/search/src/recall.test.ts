import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SearchQuery } from '@frontdesk/core'
import { parseQueryTerms } from '@frontdesk/core'
import { aCategory, aContent, aTenant } from '@frontdesk/core/testing'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from './search-engine.ts'

/*
 * A small recall set: realistic corporate-site titles and bodies (Japanese, English, Korean,
 * Chinese) and queries a visitor would type, each with the items it must find in the top 10.
 */

const CORPUS: [id: string, title: string, body: string][] = [
  ['j01', 'オフィス移転のお知らせ', '2025年7月1日より、本社を東京都千代田区丸の内へ移転いたします。新しい電話番号は後日お知らせします。'],
  ['j02', '夏季休業のご案内', '8月13日から8月16日まで夏季休業とさせていただきます。休業期間中のお問い合わせは8月19日以降に順次対応いたします。'],
  ['j03', '新製品「スマートセンサーX」発売', 'IoT向けの小型センサーを発売しました。温度と湿度を高精度で計測できます。'],
  ['j04', '個人情報保護方針の改定について', 'プライバシーポリシーを改定しました。Cookieの利用目的を明確にしました。'],
  ['j05', '採用情報：エンジニア募集', 'バックエンドエンジニアとフロントエンドエンジニアを募集しています。リモートワーク可。'],
  ['j06', '決算説明会資料を公開しました', '2025年3月期の決算説明会資料をIRページに掲載しました。売上高は前年比12%増。'],
  ['j07', 'カスタマーサポート窓口の営業時間変更', '平日9時から18時までに変更します。'],
  ['j08', 'ウェビナー開催：DX推進の第一歩', 'デジタルトランスフォーメーションの進め方を解説します。参加無料。'],
  ['e01', 'Office relocation notice', '<p>Our headquarters will move to <b>Marunouchi</b>, Tokyo on July 1.</p>'],
  ['e02', 'Summer holiday schedule', '<p>Our support desk will be closed from August 13 to 16.</p>'],
  ['e03', 'Introducing the Smart Sensor X', '<p>A compact IoT sensor that measures temperature and humidity.</p>'],
  ['e04', 'Privacy policy update', '<p>We clarified how we use cookies and analytics.</p>'],
  ['e05', 'We are hiring engineers', '<p>Backend and frontend engineers, remote friendly.</p>'],
  ['e06', 'How to write accessible forms', '<p>Labels, error messages and keyboard navigation for contact forms.</p>'],
  ['e07', 'Kubernetes migration retrospective', '<p>Lessons learned moving our services to Kubernetes clusters.</p>'],
  ['e08', 'Quarterly earnings release', '<p>Revenue increased 12% year over year.</p>'],
  ['k01', '서울 지사 개설 안내', '서울에 새로운 지사를 개설했습니다.'],
  ['z01', '公司搬迁通知', '我们的办公室将搬迁到上海浦东新区。'],
]

const QUERIES: [query: string, expected: string[]][] = [
  ['移転', ['j01']], ['千代田区', ['j01']], ['丸の内', ['j01']], ['電話番号', ['j01']],
  ['夏季休業', ['j02']], ['休業', ['j02']], ['お問い合わせ', ['j02']],
  ['センサー', ['j03']], ['温度', ['j03']], ['湿度 計測', ['j03']],
  ['プライバシー', ['j04']], ['個人情報', ['j04']], ['cookie', ['j04', 'e04']],
  ['エンジニア', ['j05']], ['募集', ['j05']], ['リモートワーク', ['j05']],
  ['決算', ['j06']], ['売上高', ['j06']], ['ＩＲ', ['j06']],
  ['営業時間', ['j07']], ['サポート', ['j07']],
  ['ウェビナー', ['j08']], ['dx', ['j08']], ['デジタル', ['j08']],
  ['relocation', ['e01']], ['marunouchi', ['e01']], ['tokyo office', ['e01']],
  ['holiday', ['e02']], ['support desk', ['e02']],
  ['humidity', ['e03']], ['temprature', ['e03']], ['iot', ['j03', 'e03']], ['sensor', ['e03']],
  ['privacy', ['e04']], ['hiring', ['e05']], ['engineer', ['e05']],
  ['accessible', ['e06']], ['keyboard', ['e06']], ['kubernetes', ['e07']], ['kubernets', ['e07']],
  ['earnings', ['e08']], ['revenue', ['e08']],
  ['서울', ['k01']], ['지사', ['k01']], ['搬迁', ['z01']], ['上海', ['z01']],
]

test('recall over a Japanese/English/Korean/Chinese set is at least 95 % in the top 10', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-recall-'))
  const store = openSqliteStore({ path: join(dir, 'r.db') })
  const search = createSearchEngine({ store })
  try {
    await store.createTenant(aTenant('t1'))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('t1', 'news'))
      for (const [id, title, body] of CORPUS) await tx.putContent(aContent('t1', id, 'news', { title, body, summary: '' }))
    })
    let expected = 0
    let found = 0
    let returned = 0
    let relevant = 0
    const misses: string[] = []
    for (const [text, ids] of QUERIES) {
      const query: SearchQuery = { terms: parseQueryTerms(text), now: '2026-01-01T00:00:00.000Z', categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10 }
      const hits = (await search.search('t1', query)).hits.map((hit) => hit.id)
      expected += ids.length
      found += ids.filter((id) => hits.includes(id)).length
      returned += hits.length
      relevant += hits.filter((id) => ids.includes(id)).length
      if (!ids.every((id) => hits.includes(id))) misses.push(`${text} → ${hits.join(',')}`)
    }
    const recall = found / expected
    const precision = relevant / Math.max(1, returned)
    if (process.env.FRONTDESK_RECALL_REPORT) console.log(`recall ${found}/${expected} = ${recall.toFixed(3)}, precision ${relevant}/${returned} = ${precision.toFixed(3)}, ${QUERIES.length} queries`)
    assert.ok(QUERIES.length >= 30)
    assert.ok(recall >= 0.95, `recall ${recall}; missed: ${misses.join('; ')}`)
  } finally {
    await search.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

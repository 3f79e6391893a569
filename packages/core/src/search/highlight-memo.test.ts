import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { aCategory, aContent } from '../testing/fixtures.ts'
import { prepare } from './found-items.ts'
import { HighlightMemo, REMEMBERED_HIGHLIGHTS, termsKey } from './highlight-memo.ts'
import { parseQueryTerms } from './query-terms.ts'
import { resultItem } from './search-contents.ts'

test('computes once per key and keeps the latest keys only', () => {
  const memo = new HighlightMemo()
  let calls = 0
  const compute = (title: string) => () => {
    calls++
    return { title, fragments: [title] }
  }
  assert.is(memo.get('a', compute('A')).title, 'A')
  assert.is(memo.get('a', compute('other')).title, 'A')
  assert.is(calls, 1)
  for (let i = 0; i < REMEMBERED_HIGHLIGHTS; i++) memo.get(`k${i}`, compute(`K${i}`))
  assert.is(memo.get('a', compute('again')).title, 'again', 'a was the oldest: forgotten')
})

test('terms differing in anything highlighting reads have different keys', () => {
  const keys = ['office', 'offic', 'offices', 'office tokyo', 'tokyo office', '東京', '東', '東京都', 'office 東京'].map((q) => termsKey(parseQueryTerms(q)))
  assert.is(new Set(keys).size, keys.length)
  assert.is(termsKey(parseQueryTerms('Office')), termsKey(parseQueryTerms('office')))
})

test('an item found by a sequence of queries shows the highlights a fresh preparation gives', () => {
  const words = ['office', 'offices', 'moving', 'tokyo', '東京', '移転', 'お知らせ', 'the']
  const text = fc.array(fc.constantFrom(...words, 'and', '。'), { maxLength: 12 }).map((w) => w.join(' '))
  fc.assert(
    fc.property(text, text, text, fc.array(fc.array(fc.constantFrom(...words, 'offic', '東'), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }), (title, summary, body, queries) => {
      const record = aContent('t1', 'c1', 'cat', { title, summary, body: `<p>${body}</p>` })
      const category = aCategory('t1', 'cat')
      const source = prepare(record)
      for (const query of queries) {
        const terms = parseQueryTerms(query.join(' '))
        assert.equal(resultItem(record, category, 1, terms, source), resultItem(record, category, 1, parseQueryTerms(query.join(' ')), prepare(record)))
      }
    }),
  )
})

test.run()

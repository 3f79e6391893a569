import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { indexTerms, normalizeTerm, tokenize } from './analyzer.ts'
import { parseQueryTerms, withinOneEdit, wordMatches } from './query-terms.ts'

test('Latin text becomes lower-cased words, punctuation dropped', () => {
  assert.equal(indexTerms('Hello, World! Frontdesk’s API v2.0'), ['hello', 'world', 'frontdesk’s', 'api', 'v2.0'])
})

test('full-width and half-width forms are NFKC-normalised', () => {
  assert.equal(indexTerms('ＡＢＣ ﾃｽﾄ'), ['abc', 'テス', 'スト', 'ト'])
})

test('a CJK run without spaces is indexed as bigrams plus its last character', () => {
  assert.equal(indexTerms('オフィス移転のお知らせ'), ['オフ', 'フィ', 'ィス', 'ス移', '移転', '転の', 'のお', 'お知', '知ら', 'らせ', 'せ'])
})

test('punctuation and Latin words end a CJK run', () => {
  assert.equal(indexTerms('東京、大阪 iPhone発売'), ['東京', '京', '大阪', '阪', 'iphone', '発売', '売'])
})

test('a single CJK character between spaces is one unigram', () => {
  assert.equal(indexTerms('第 1 回'), ['第', '1', '回'])
})

test('Hangul runs are bigrammed like Japanese', () => {
  assert.equal(indexTerms('서울에서'), ['서울', '울에', '에서', '서'])
})

test('token offsets point at the original text, also across NFKC length changes', () => {
  const text = 'ｶﾞｲﾄﾞ Café'
  for (const token of tokenize(text)) assert.ok(token.end > token.start)
  const cafe = tokenize(text).find((token) => token.term === 'café')
  assert.is(cafe && text.slice(cafe.start, cafe.end), 'Café')
  const first = tokenize(text)[0]
  assert.is(first && text.slice(first.start, first.end), 'ｶﾞｲ')
  assert.is(first && text.slice(first.start, first.headEnd), 'ｶﾞ')
})

test('characters outside the BMP are kept whole in bigrams', () => {
  assert.equal(indexTerms('𠮷野家'), ['𠮷野', '野家', '家'])
})

test('a query splits into AND-ed words and CJK runs, each once', () => {
  assert.equal(parseQueryTerms('Office  移転 office 都'), [
    { kind: 'word', term: 'office', fuzzy: 1 },
    { kind: 'cjk', text: '移転', grams: ['移転'], prefix: false },
    { kind: 'cjk', text: '都', grams: ['都'], prefix: true },
  ])
})

test('a long CJK query run keeps all its bigrams in order', () => {
  assert.equal(parseQueryTerms('お知らせ'), [{ kind: 'cjk', text: 'お知らせ', grams: ['お知', '知ら', 'らせ'], prefix: false }])
})

test('only words of five or more letters without digits tolerate a typo', () => {
  const fuzzy = Object.fromEntries(parseQueryTerms('tokyo kyoto1 news 12345 résumé').map((t) => [t.kind === 'word' ? t.term : t.text, t.kind === 'word' ? t.fuzzy : -1]))
  assert.equal(fuzzy, { tokyo: 1, kyoto1: 0, news: 0, '12345': 0, résumé: 1 })
})

test('a query of punctuation only has no terms', () => {
  assert.equal(parseQueryTerms('!!! ??? 。、'), [])
})

test('words match as prefixes, and within one edit when fuzzy', () => {
  const [tokyo] = parseQueryTerms('tokyo')
  const [news] = parseQueryTerms('news')
  if (tokyo?.kind !== 'word' || news?.kind !== 'word') throw new Error('expected words')
  assert.ok(wordMatches(tokyo, 'tokyoite'))
  assert.ok(wordMatches(tokyo, 'tokio'))
  assert.ok(wordMatches(tokyo, 'toky'))
  assert.not.ok(wordMatches(tokyo, 'kyoto'))
  assert.ok(wordMatches(news, 'newsletter'))
  assert.not.ok(wordMatches(news, 'nows'))
})

test('withinOneEdit counts one insertion, deletion or substitution', () => {
  assert.ok(withinOneEdit('kitten', 'kitten'))
  assert.ok(withinOneEdit('kitten', 'sitten'))
  assert.ok(withinOneEdit('kitten', 'kittens'))
  assert.ok(withinOneEdit('kitten', 'kiten'))
  assert.not.ok(withinOneEdit('kitten', 'sittin'))
  assert.not.ok(withinOneEdit('kitten', 'kit'))
  assert.not.ok(withinOneEdit('ab', 'ba'))
})

/** Levenshtein distance over code points (the oracle of `withinOneEdit`). */
function distance(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  let row = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const next = [i]
    for (let j = 1; j <= y.length; j++) next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1))
    row = next
  }
  return row[y.length] ?? 0
}

test('withinOneEdit agrees with the Levenshtein distance, surrogate pairs included', () => {
  const char = fc.constantFrom('a', 'b', 'c', '𝒜', '😀')
  const word = fc.array(char, { maxLength: 6 }).map((chars) => chars.join(''))
  fc.assert(fc.property(word, word, (a, b) => withinOneEdit(a, b) === distance(a, b) <= 1), { numRuns: 2000 })
})

test('Thai is split into words by Intl.Segmenter', () => {
  assert.equal(indexTerms('สวัสดีครับ hello'), ['สวัสดี', 'ครับ', 'hello'])
})

test('a combining mark stays with its CJK character', () => {
  assert.equal(indexTerms('葛\u{E0100}飾'), ['葛\u{E0100}飾', '飾'])
})

const segmenter = new Intl.Segmenter('und', { granularity: 'word' })
const LATIN = [...'abcxyzAB019 .,:;\'’_-!?@/#éüßαдñ·\n\t"()$%&+=', 'e\u0301']

test('words outside CJK are split as Intl.Segmenter splits them (UAX #29)', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...LATIN), { maxLength: 30 }).map((chars) => chars.join('')), (text) => {
      const expected = [...segmenter.segment(normalizeTerm(text))]
        .filter((segment) => segment.isWordLike && /[\p{L}\p{Nd}]/u.test(segment.segment))
        .map((segment) => segment.segment)
      assert.equal(indexTerms(text), expected, JSON.stringify(text))
    }),
    { numRuns: 3000 },
  )
})

test('tokenize and indexTerms agree, and offsets always slice the original text', () => {
  const alphabet = [...LATIN, 'ｶ', 'ﾞ', 'Ａ', '東', '京', 'の', 'ー', '㍿', 'İ', 'ﬁ', '。', '서', '울']
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 20 }).map((chars) => chars.join('')), (text) => {
      const tokens = tokenize(text)
      assert.equal(tokens.map((token) => token.term), indexTerms(text))
      for (const token of tokens) assert.ok(token.start < token.end && token.end <= text.length && token.headEnd <= token.end && token.headEnd > token.start)
    }),
    { numRuns: 2000 },
  )
})

test.run()

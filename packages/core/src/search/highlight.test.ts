import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { escapeHtml, highlightFragments, highlightText, matchSpans, mayOccur } from './highlight.ts'
import { normalizeTerm, tokenize } from './analyzer.ts'
import type { QueryTerm } from './query-terms.ts'
import { parseQueryTerms, wordMatches } from './query-terms.ts'
import { stripHtml } from './strip-html.ts'

const q = parseQueryTerms

test('every matched word of the title is wrapped in <em>, the whole word for a prefix', () => {
  assert.is(highlightText('Office moving: new office in Tokyo', q('off tokyo')), '<em>Office</em> moving: new <em>office</em> in <em>Tokyo</em>')
})

test('a typo in a long query word still highlights the word it matched', () => {
  assert.is(highlightText('Meeting in Tokio', q('tokyo')), 'Meeting in <em>Tokio</em>')
})

test('a title with markup comes back escaped, matches still marked', () => {
  assert.is(highlightText('<script>alert("x")</script> & news', q('script news')), '&lt;<em>script</em>&gt;alert(&quot;x&quot;)&lt;/<em>script</em>&gt; &amp; <em>news</em>')
})

test('a CJK query run is highlighted where it occurs as a whole', () => {
  assert.is(highlightText('オフィス移転のお知らせ', q('移転')), 'オフィス<em>移転</em>のお知らせ')
  assert.is(highlightText('オフィス移転のお知らせ', q('お知らせ')), 'オフィス移転の<em>お知らせ</em>')
})

test('a one-character CJK query highlights just that character', () => {
  assert.is(highlightText('東京都庁', q('京')), '東<em>京</em>都庁')
  assert.is(highlightText('東京都', q('都')), '東京<em>都</em>')
})

test('half-width katakana in the text is matched by full-width in the query, originals kept', () => {
  assert.is(highlightText('ｶﾞｲﾄﾞ本', q('ガイド')), '<em>ｶﾞｲﾄﾞ</em>本')
})

test('a word without its diacritics highlights the word as written, accents and all', () => {
  assert.is(highlightText('Le Café de Flore', q('cafe')), 'Le <em>Café</em> de Flore')
  assert.is(highlightText('Le Cafe\u0301 de Flore', q('CAFÉ')), 'Le <em>Cafe\u0301</em> de Flore', 'an accent written apart')
  assert.is(highlightText('Ελλάδα και Αθήνα', q('αθηνα')), 'Ελλάδα και <em>Αθήνα</em>')
  assert.equal(highlightFragments(['Un crème brûlée au café.'], q('creme cafe')), ['Un <em>crème</em> brûlée au <em>café</em>.'])
  assert.is(highlightText('ガイドとカイド', q('ガイド')), '<em>ガイド</em>とカイド', 'a voiced kana is not its unvoiced one')
})

test('adjacent and overlapping matches merge into one <em>', () => {
  assert.equal(matchSpans('東京都庁', q('東京 京都')), [{ start: 0, end: 3 }])
})

test('a title without matches is returned escaped', () => {
  assert.is(highlightText('A < B', q('zzz')), 'A &lt; B')
})

test('fragments are cut around matches, at most three, each about 100 characters', () => {
  const filler = 'lorem ipsum dolor sit amet '.repeat(10)
  const body = `${filler}alpha ${filler}alpha ${filler}alpha ${filler}alpha ${filler}`
  const fragments = highlightFragments(['', body], q('alpha'))
  assert.is(fragments.length, 3)
  for (const fragment of fragments) {
    assert.match(fragment, /<em>alpha<\/em>/)
    assert.ok(fragment.replace(/<\/?em>/g, '').length <= 110, fragment)
  }
})

test('fragments come from the summary first, then the body', () => {
  const fragments = highlightFragments(['Summary about cats.', 'Body about cats and dogs.'], q('cats'))
  assert.equal(fragments, ['Summary about <em>cats</em>.', 'Body about <em>cats</em> and dogs.'])
})

test('fragment text outside <em> is escaped', () => {
  const fragments = highlightFragments(['Use <b>bold</b> & "quotes" with care'], q('bold'))
  assert.equal(fragments, ['Use &lt;b&gt;<em>bold</em>&lt;/b&gt; &amp; &quot;quotes&quot; with care'])
})

test('without any match the fragments fall back to the opening of the text', () => {
  assert.equal(highlightFragments(['', 'Nothing here matches'], q('zzz')), ['Nothing here matches'])
  assert.equal(highlightFragments(['', ''], q('zzz')), [])
})

test('Japanese body fragments mark the query run', () => {
  const body = 'あ'.repeat(150) + '新しいオフィスへ移転しました' + 'い'.repeat(150)
  const [fragment] = highlightFragments([body], q('移転'))
  assert.ok(fragment?.includes('<em>移転</em>'))
  assert.ok((fragment?.length ?? 0) < 120)
})

test('stripHtml removes tags, scripts and comments and decodes entities', () => {
  assert.is(stripHtml('<p>Hello&nbsp;<b>wor</b>ld</p><p>next &amp; last &#x263A; &#65;</p><script>evil()</script><!-- c -->'), 'Hello world next & last ☺ A')
  assert.is(stripHtml('plain   text'), 'plain text')
  assert.is(stripHtml('a &bogus; b &#0; c'), 'a &bogus; b &#0; c')
})

test('escapeHtml escapes the five HTML-special characters', () => {
  assert.is(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
})

test('a long body is scanned in pieces, matches found anywhere in it', () => {
  const body = `${'filler words here. '.repeat(2000)}the needle is here. ${'more filler. '.repeat(500)}`
  assert.equal(highlightFragments([body], q('needle')).map((f) => f.includes('<em>needle</em>')), [true])
  const japanese = '。'.repeat(1) + 'あいうえお'.repeat(2000) + '移転' + 'かきくけこ'.repeat(100)
  assert.ok(highlightFragments([japanese], q('移転'))[0]?.includes('<em>移転</em>'))
})

test('mayOccur never rules out text a term matches (its false is certain)', () => {
  const word = fc.array(fc.constantFrom('a', 'b', 'c', 'ab', 'Ａ', '東', '京', '都', '𠮷'), { minLength: 1, maxLength: 7 }).map((parts) => parts.join(''))
  const text = fc.array(word, { maxLength: 5 }).map((words) => words.join(' '))
  fc.assert(
    fc.property(text, word, (t, w) => {
      const tokens = tokenize(t)
      // Any token the term matches (what the spans are made of), found without mayOccur.
      const matched = (term: QueryTerm): boolean =>
        term.kind === 'word'
          ? tokens.some((token) => !token.cjk && wordMatches(term, token.term))
          : tokens.some((token) => token.cjk && term.grams.some((gram) => (term.prefix ? token.term.startsWith(gram) : token.term === gram)))
      return parseQueryTerms(w).filter(matched).every((term) => mayOccur(normalizeTerm(t), term))
    }),
    { numRuns: 3000 },
  )
})

test.run()

import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { referenceTermScores } from '../testing/search/reference-match.ts'
import type { Phrase } from './phrase.ts'
import { hasPhrase, phraseChecker, phraseUnits } from './phrase.ts'
import { MAX_PHRASES, parseQuery } from './query-terms.ts'

/*
 * `"a phrase"` (issue 29): the rule on random text. A stretch of a text, quoted, always finds
 * that text however it is written (case, width, kana, the separators the analyzer joins); a
 * text found holds every word of the phrase as a query word (an engine's candidates are the
 * items matching them); the engine's fast check answers as the rule does; and quotes never
 * make a query fail.
 */

const RUNS = { numRuns: 200 }
// Words of every kind the analyzer reads: Latin with case and diacritics, compounds, dotted words, digits, kana, kanji, a katakana compound with a dot, Thai.
const WORDS = [
  'office', 'Office', 'OFFICE', 'café', 'cafe', 'learned', 'learning', 'covid-19', 'COVID', '19', 'e-mail', 'example.com', "don't", '3.14',
  'お知らせ', 'オフィス', '移転', '東京', 'コンピューター', 'コンピュータ', 'ソフトウェア・エンジニア', 'ｶﾞｲﾄﾞ', 'ภาษาไทย', 'ÖL', '人々',
]
const SEPARATORS = [' ', ' ', ', ', '. ', '\n', ' - ', '、', '（', '']
const text = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 12 }).map((parts) => parts.map(([w, s]) => w + s).join(''))

const phraseOf = (quoted: string): Phrase | undefined => parseQuery(`"${quoted}"`).phrases[0]

test('a stretch of a text, quoted, finds it, written as it is, in upper case or full width', () => {
  const parts = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 12 })
  fc.assert(
    fc.property(parts, fc.nat(), fc.nat(), fc.constantFrom<(s: string) => string>((s) => s, (s) => s.toUpperCase(), (s) => s.normalize('NFKC')), (p, a, b, write) => {
      const t = p.map(([w, s]) => w + s).join('')
      // Whole words of the text with what stands between them (the stretch starts and ends at a word's edge).
      const from = a % p.length
      const stretch = p.slice(from, from + 1 + (b % 3))
      // A word glued to the stretch (no separator) would make one longer word of its edge.
      if (p[from - 1]?.[1] === '' || (stretch[stretch.length - 1]?.[1] === '' && from + stretch.length < p.length)) return
      const quoted = write(stretch.map(([w, s], i) => (i === stretch.length - 1 ? w : w + s)).join(''))
      const phrase = phraseOf(quoted)
      if (phrase === undefined) return
      assert.ok(hasPhrase([t], phrase), `${quoted} in ${t}`)
      assert.ok(phraseChecker([phrase])([t]), `${quoted} in ${t} (fast check)`)
    }),
    RUNS,
  )
})

test('a text holding a phrase matches every query word of it (the candidates an engine checks)', () => {
  fc.assert(
    fc.property(text, text, (t, quoted) => {
      const phrase = phraseOf(quoted)
      if (phrase === undefined || !hasPhrase([t], phrase)) return
      const item = { doc: { id: 'c1', category_id: 'cat', status: 'published' as const, published_at: null, tags: [], fields: {} }, title: t, summary: '', body: '' }
      const scores = referenceTermScores(item, undefined, phrase.terms)
      assert.ok(scores.every((score) => score > 0), `${quoted} in ${t}`)
    }),
    RUNS,
  )
})

test('the fast check answers as the rule, on random texts and phrases', () => {
  const quoted = fc.oneof(text, fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')))
  fc.assert(
    fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), fc.array(quoted, { minLength: 1, maxLength: 2 }), (texts, quotes) => {
      const phrases = quotes.map(phraseOf).filter((p) => p !== undefined)
      const rule = phrases.every((phrase) => hasPhrase(texts, phrase))
      assert.is(phraseChecker(phrases)(texts), rule, `${JSON.stringify(quotes)} in ${JSON.stringify(texts)}`)
    }),
    { numRuns: 500 },
  )
})

test('words of a text not side by side, or the other way round, are no phrase of it', () => {
  const distinct = fc.uniqueArray(fc.constantFrom('harbour', 'lights', 'office', 'café', 'covid-19', 'tokyo', 'e-mail', 'migration', '移転', 'お知らせ'), { minLength: 3, maxLength: 8 })
  fc.assert(
    fc.property(distinct, fc.nat(), fc.nat(), (words, a, b) => {
      const i = a % (words.length - 2)
      const j = i + 2 + (b % (words.length - i - 2))
      // Words, and Japanese runs, apart: a comma ends a CJK run, as it ends a word.
      const t = words.join(', ')
      const apart = phraseOf(`${words[i]} ${words[j]}`)
      const reversed = phraseOf(`${words[i + 1]} ${words[i]}`)
      assert.ok(apart !== undefined && !hasPhrase([t], apart), `${words[i]} ${words[j]} in ${t}`)
      assert.ok(reversed !== undefined && !hasPhrase([t], reversed), `${words[i + 1]} ${words[i]} in ${t}`)
      assert.ok(hasPhrase([t], phraseOf(`${words[i]} ${words[i + 1]}`) as Phrase), 'side by side and in order')
    }),
    RUNS,
  )
})

test('a phrase is found only adjacent and in order, never across fields', () => {
  const phrase = phraseOf('harbour lights')
  assert.ok(phrase !== undefined)
  assert.ok(hasPhrase(['The Harbour, lights!'], phrase), 'punctuation between the words does not matter')
  assert.not.ok(hasPhrase(['lights harbour'], phrase))
  assert.not.ok(hasPhrase(['harbour of lights'], phrase))
  assert.not.ok(hasPhrase(['harbour', 'lights'], phrase))
  assert.not.ok(hasPhrase(['harbourside lights'], phrase), 'whole words: no prefix')
  const ja = phraseOf('移転のお知らせ')
  assert.ok(ja !== undefined && hasPhrase(['オフィス移転のお知らせ'], ja))
  assert.ok(ja !== undefined && !hasPhrase(['お知らせ: 移転の予定'], ja))
  assert.equal(phraseUnits('ソフトウェア・エンジニア').map((u) => u.unit).join(''), 'ソフトウエアエンジニア', 'the small vowel at its full size')
})

test('quotes: paired in order, a lone one plain text, "" nothing, and never a failure', () => {
  assert.equal(parseQuery('"a b" c "d').phrases.map((p) => p.key), ['a b'])
  assert.equal(parseQuery('""').phrases, [])
  assert.equal(parseQuery('"  !! "').phrases, [])
  assert.equal(parseQuery('“東京 タワー”').phrases.map((p) => p.key), ['東 京 タ ワ'])
  assert.equal(parseQuery('"a -b"').excluded, [], 'no - inside quotes excludes')
  const many = parseQuery(Array.from({ length: 12 }, (_, i) => `"w${i}"`).join(' '))
  assert.equal(many.phrases.map((p) => p.key), Array.from({ length: MAX_PHRASES }, (_, i) => `w${i}`), 'quotes past the last phrase are plain text')
  assert.is(many.terms.length, 12)
  fc.assert(
    fc.property(fc.array(fc.constantFrom('"', '-', ' ', 'a', 'ab', '東', '＂', '“', '”', '!'), { maxLength: 60 }), (chars) => {
      const query = chars.join('')
      const parsed = parseQuery(query)
      const quotes = [...query].filter((c) => '"＂“”'.includes(c)).length
      assert.ok(parsed.phrases.length <= quotes / 2)
    }),
    RUNS,
  )
  // Syntax only, or one character many times: parsed and checked against a text of it in well under 50 ms (the best of three, on a shared machine).
  for (const query of ['"'.repeat(500), '-'.repeat(500), '" '.repeat(250), `"${'a '.repeat(249)}"`, `"${'東'.repeat(498)}"`, 'a'.repeat(500)]) {
    const ms = [0, 1, 2].map(() => {
      const at = performance.now()
      const { phrases } = parseQuery(query)
      if (phrases[0] !== undefined) phraseChecker(phrases)([query.repeat(4)])
      return performance.now() - at
    })
    assert.ok(Math.min(...ms) < 50, `${query.slice(0, 8)}…: ${ms.join(', ')} ms`)
  }
})

test.run()

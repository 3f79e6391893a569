import { forEachIndexTerm, normalizeTerm } from '@frontdesk/core'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { characterClasses, forEachBuildTerm, scanPlainText } from './build-terms.ts'
import { termHash } from './term-table.ts'

type Term = [term: string, cjk: boolean]

function collect(run: (sink: (term: string, cjk: boolean) => void, pairSink: (first: number, second: number) => void) => void): Term[] {
  const terms: Term[] = []
  run((term, cjk) => terms.push([term, cjk]), (first, second) => terms.push([String.fromCharCode(first, second), true]))
  return terms
}

const core = (text: string) => collect((sink, pairSink) => forEachIndexTerm(text, sink, pairSink))
const build = (text: string) => collect((sink, pairSink) => forEachBuildTerm(text, sink, pairSink))
/** As `build`, the words of plain text taken where they lie (`wordSink`). */
const buildWords = (text: string) =>
  collect((sink, pairSink) =>
    forEachBuildTerm(text, sink, pairSink, (source, start, end, hash) => {
      assert.is(hash, termHash(source, start, end), `the hash of ${JSON.stringify(source.slice(start, end))}`)
      sink(source.slice(start, end), false)
    }),
  )

// Characters around every rule of the analyzer: words, mid-word punctuation, digits, underscores, CJK runs,
// full- and half-width forms, marks, format characters, other digits, Thai, characters beyond the BMP.
const ALPHABET = [
  'a', 'b', 'Z', 'é', 'ß', 'ı', 'İ', 'Σ', 'я', '0', '7', '_', ':', '·', ',', ';', '.', "'", '’', ' ', ' ', '-', '\u2010', '\u2011', '\n', '<', '&', '/',
  '移', '転', 'の', 'ア', 'ー', '々', '〆', 'ヶ', '한', '글', 'ｶ', 'ﾞ', 'Ａ', '１', 'ﬁ', '\u3099', '\u0301', '\u200d', '\ufe0f',
  'ก', 'ข', '١', '٢', '😀', '𠮷', '・', '。', '「', '〇', '㈱', '①', 'Ⅳ', '\u00ad', 'イ', 'ン', 'ぷ', '=', '＝', '゠', '･', '　',
]

test('the terms of any text are those of core’s analyzer, in the same order', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 40 }), (chars) => {
      const text = chars.join('')
      assert.equal(build(text), core(text), JSON.stringify(text))
      assert.equal(buildWords(text), core(text), JSON.stringify(text))
    }),
    { numRuns: 3000 },
  )
})

// ASCII text is normalised by lower-casing alone: upper case, every kind of ASCII punctuation, controls.
const ASCII = ['a', 'b', 'z', 'A', 'Q', 'Z', '0', '9', '_', ':', ',', ';', '.', "'", ' ', '-', '/', '\n', '\t', '<', '&', '=', '!', '@', '\u007f', '\u0000']

test('ASCII text gives the terms of core’s analyzer, in the same order', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...ASCII), { maxLength: 40 }), (chars) => {
      const text = chars.join('')
      assert.equal(build(text), core(text), JSON.stringify(text))
      assert.equal(buildWords(text), core(text), JSON.stringify(text))
    }),
    { numRuns: 2000 },
  )
})

// Only characters the scan handles itself (none makes it hand the text to core's analyzer).
const PLAIN = ['a', 'b', 'z', 'é', 'ß', 'я', '0', '7', '_', ':', '·', ',', ';', '.', "'", '’', ' ', '-', '\u2010', '\n', '<', '移', '転', 'の', 'ア', 'ー', '々', '〆', 'ヶ', '한', '・', '。', '〇']

test('plain text is scanned without the analyzer, to the same terms', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...PLAIN), { maxLength: 40 }), (chars) => {
      const text = chars.join('')
      let handled = false
      const scanned = collect((sink, pairSink) => (handled = scanPlainText(normalizeTerm(text), sink, pairSink)))
      assert.ok(handled, JSON.stringify(text))
      assert.equal(scanned, core(text), JSON.stringify(text))
    }),
    { numRuns: 5000 },
  )
})

test('realistic text: English, Japanese, HTML-stripped bodies, numbers', () => {
  for (const text of [
    "Don't e-mail example.com about 3.14 or 1,000 items; a:b is one word, 1;2 too. __init__ _ __",
    'オフィス移転のお知らせ：本社を東京都千代田区へ移転します。電話番号は０３－１２３４－５６７８。',
    '서울 지사 개설 안내 — 公司搬迁通知 — ｶﾞｲﾄﾞ ﬁsh ＡＢＣ',
    'end.', 'a.', '.a', "a'", '1.', 'a..b', 'a.b.c', '1.2.3', 'a.1', '1.a', 'x_1.y', '_1', '__', '_a_', 'ab’cd',
  ]) {
    assert.equal(build(text), core(text), text)
  }
})

test('the character classes agree with the analyzer for every stable BMP character', () => {
  const table = characterClasses()
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue
    const char = String.fromCharCode(code)
    if (normalizeTerm(char) !== char || table[code] === 8) continue
    const expected = core(char)
    const actual = build(char)
    if (JSON.stringify(actual) !== JSON.stringify(expected)) assert.unreachable(`U+${code.toString(16)} ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`)
  }
})

test.run()

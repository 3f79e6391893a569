import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseQuery } from './query-terms.ts'
import { isShortPrefix, isWordCharacter, MAX_SHORT_PREFIXES, SHORT_PREFIX_WORDS, shortPrefixWords } from './short-prefix.ts'

test('shortPrefixWords keeps the words the most items hold, ties to the shorter, then the first in code-unit order (as sorting them all would)', () => {
  const entry = fc.tuple(fc.stringMatching(/^a[a-c]{0,3}$/), fc.integer({ min: 0, max: 4 }))
  fc.assert(
    fc.property(fc.uniqueArray(entry, { selector: ([word]) => word, maxLength: 40 }), fc.integer({ min: 0, max: 12 }), (words, limit) => {
      const sorted = words.filter(([, items]) => items > 0).sort(([a, m], [b, n]) => n - m || a.length - b.length || (a < b ? -1 : 1))
      assert.equal(shortPrefixWords(words, limit), sorted.slice(0, limit).map(([word]) => word))
    }),
  )
})

test('one character is a short prefix, a letter beyond the BMP too; two are not', () => {
  assert.equal(['a', 'あ', '日', '𠮷', 'ab', '', 'あい'].map(isShortPrefix), [true, true, true, true, false, false, false])
})

test('a query gives its first one-character words and CJK runs outside quotes a few prefix words, the later ones none', () => {
  const limits = (query: string) => parseQuery(query).terms.map((term) => term.prefixWords)
  assert.equal(limits('a'), [SHORT_PREFIX_WORDS])
  assert.equal(limits('a'.repeat(500)), [undefined])
  assert.equal(limits('a '.repeat(250)), [SHORT_PREFIX_WORDS])
  assert.equal(MAX_SHORT_PREFIXES, 2)
  assert.equal(limits('a b c office d'), [SHORT_PREFIX_WORDS, SHORT_PREFIX_WORDS, 0, undefined, 0])
  assert.equal(limits('の 日 x'), [SHORT_PREFIX_WORDS, undefined, 0], 'a kanji is a word: every bigram it begins')
  assert.equal(limits('春 夏 秋 冬'), [undefined, undefined, 0, 0], 'two of them at most')
  assert.equal(['春', '𠮷', 'の', 'ア', '한', 'a', '春夏'].map(isWordCharacter), [true, true, false, false, false, false, false])
  assert.equal(parseQuery('a -b -c').excluded.map((term) => term.prefixWords), [SHORT_PREFIX_WORDS, 0])
  // Quoted: found wherever it stands (a phrase's candidates are the items matching its words), and not counted.
  assert.equal(limits('"a" b "の" c d'), [undefined, SHORT_PREFIX_WORDS, undefined, SHORT_PREFIX_WORDS, 0])
  // A phrase's own terms are its words whole.
  assert.equal(parseQuery('"a b"').phrases[0]?.terms.map((term) => term.prefixWords), [0, 0])
})

test.run()

import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { finds } from './finds.test-util.ts'
import { cjkRunTokens, FOLDED_KANA, FOLDS_KANA, foldKanaCode, indexTerms, joinedForm, normalizeTerm, scannedTokens, tokenize } from './analyzer.ts'
import { MATCH_WEIGHTS, parseQuery, parseQueryTerms, stemMatches, stemOf, withinOneEdit, wordMatches, wordMatchWeight } from './query-terms.ts'

test('Latin text becomes lower-cased words, punctuation dropped', () => {
  assert.equal(indexTerms('Hello, World! Frontdesk’s API v2.0'), ['hello', 'world', 'frontdesk’s', 'api', 'v2.0', 'v2', '0', 'v20'])
})

test('full-width and half-width forms are NFKC-normalised', () => {
  assert.equal(indexTerms('ＡＢＣ ﾃｽﾄ'), ['abc', 'テス', 'スト', 'ト'])
})

test('FOLDS_KANA holds exactly the code units foldKanaCode changes, FOLDED_KANA those it changes them to', () => {
  const targets = new Set<number>()
  for (let code = 0; code < 0x10000; code++) {
    assert.is(FOLDS_KANA.test(String.fromCharCode(code)), foldKanaCode(code) !== code, code.toString(16))
    if (foldKanaCode(code) !== code) targets.add(foldKanaCode(code))
  }
  for (let code = 0; code < 0x10000; code++) assert.is(FOLDED_KANA.test(String.fromCharCode(code)), targets.has(code), code.toString(16))
})

test('a CJK run without spaces is indexed as bigrams plus its last character', () => {
  // Hiragana is folded to katakana, a small vowel to its full size (see 'hiragana and katakana are one', normalization.test.ts).
  assert.equal(indexTerms('オフィス移転のお知らせ'), ['オフ', 'フイ', 'イス', 'ス移', '移転', '転ノ', 'ノオ', 'オ知', '知ラ', 'ラセ', 'セ'])
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
  const cafe = tokenize(text).find((token) => token.term === 'cafe')
  assert.is(cafe && text.slice(cafe.start, cafe.end), 'Café')
  const first = tokenize(text)[0]
  assert.is(first && text.slice(first.start, first.end), 'ｶﾞｲ')
  assert.is(first && text.slice(first.start, first.headEnd), 'ｶﾞ')
})

test('Latin, Greek and Cyrillic letters lose their diacritics, as they lose case and width', () => {
  assert.equal(indexTerms('Café CRÈME brûlée Ångström naïve Łódź'), ['cafe', 'creme', 'brulee', 'angstrom', 'naive', 'łodz'])
  assert.equal(indexTerms('Ἀθῆναι Ελλάδα'), ['αθηναι', 'ελλαδα'])
  assert.equal(indexTerms('ёлка Йошкар'), ['елка', 'иошкар'])
  assert.equal(indexTerms('İstanbul'), ['istanbul'])
  assert.equal(indexTerms('ﬁancé'), ['fiance'], 'after NFKC')
  // A mark written apart from its letter folds as the precomposed letter does.
  assert.equal(indexTerms('cafe\u0301 e\u0301\u0323'), ['cafe', 'e'])
  // Letters without a decomposition stay; so do marks of the block after other characters.
  assert.equal(indexTerms('søren straße'), ['søren', 'straße'])
  assert.is(normalizeTerm('1\u0301'), '1\u0301')
  assert.equal(parseQueryTerms('café'), parseQueryTerms('CAFE'))
})

test('Japanese voicing marks do not fold: a voiced kana is another syllable', () => {
  assert.equal(indexTerms('ガイド'), ['ガイ', 'イド', 'ド'])
  assert.equal(indexTerms('ｶﾞｲﾄﾞ'), ['ガイ', 'イド', 'ド'], 'half-width with its mark apart is the voiced kana too')
  assert.is.not(normalizeTerm('バス'), normalizeTerm('パス'))
  assert.is.not(normalizeTerm('が'), normalizeTerm('か'))
  assert.is(normalizeTerm('か\u3099'), 'が', 'a voicing mark apart composes, and stays')
})

test('offsets of folded letters point at the letters as written, precomposed or not', () => {
  for (const text of ['Le Café ouvre', 'Le Cafe\u0301 ouvre', 'Straße İstanbul Ёлка']) {
    for (const token of tokenize(text)) assert.is(normalizeTerm(text.slice(token.start, token.end)), token.term, `${JSON.stringify(text)}: ${token.term}`)
  }
  const decomposed = 'Le Cafe\u0301 ouvre'
  const cafe = tokenize(decomposed).find((token) => token.term === 'cafe')
  assert.is(cafe && decomposed.slice(cafe.start, cafe.end), 'Cafe\u0301')
})

test('characters outside the BMP are kept whole in bigrams', () => {
  assert.equal(indexTerms('𠮷野家'), ['𠮷野', '野家', '家'])
})

test('a query splits into AND-ed words and CJK runs, each once', () => {
  assert.equal(parseQueryTerms('Office  移転 office 都'), [
    { kind: 'word', term: 'office', fuzzy: 1, stem: 'offic', joined: null },
    { kind: 'cjk', text: '移転', grams: ['移転'], prefix: false },
    { kind: 'cjk', text: '都', grams: ['都'], prefix: true },
  ])
})

test('a long CJK query run keeps all its bigrams in order', () => {
  assert.equal(parseQueryTerms('お知らせ'), [{ kind: 'cjk', text: 'オ知ラセ', grams: ['オ知', '知ラ', 'ラセ'], prefix: false }])
})

test('only words of five or more letters without digits tolerate a typo', () => {
  const fuzzy = Object.fromEntries(parseQueryTerms('tokyo kyoto1 news 12345 résumé').map((t) => [t.kind === 'word' ? t.term : t.text, t.kind === 'word' ? t.fuzzy : -1]))
  assert.equal(fuzzy, { tokyo: 1, kyoto1: 0, news: 0, '12345': 0, resume: 1 })
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

test('withinOneEdit counts one insertion, deletion, substitution or swap of two neighbours', () => {
  assert.ok(withinOneEdit('kitten', 'kitten'))
  assert.ok(withinOneEdit('kitten', 'sitten'))
  assert.ok(withinOneEdit('kitten', 'kittens'))
  assert.ok(withinOneEdit('kitten', 'kiten'))
  assert.not.ok(withinOneEdit('kitten', 'sittin'))
  assert.not.ok(withinOneEdit('kitten', 'kit'))
  assert.ok(withinOneEdit('ab', 'ba'), 'a swap')
  assert.ok(withinOneEdit('auorra', 'aurora'), 'a swap inside')
  assert.ok(withinOneEdit('aurroa', 'aurora'), 'a swap at the end')
  assert.ok(withinOneEdit('𐌱𐌰𐌲', '𐌰𐌱𐌲'), 'a swap of letters beyond the BMP')
  assert.not.ok(withinOneEdit('abc', 'bca'), 'a rotation is two edits')
  assert.not.ok(withinOneEdit('abcd', 'badc'), 'two swaps')
  assert.not.ok(withinOneEdit('abc', 'cba'), 'a swap of non-neighbours')
})

/** The optimal string alignment distance over code points: Levenshtein plus swaps of neighbours (the oracle of `withinOneEdit`). */
function distance(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  const at = (i: number, j: number) => d[i]?.[j] ?? 0
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (x[i - 1] === y[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1)
      const row = d[i]
      if (row !== undefined) row[j] = best
    }
  }
  return at(x.length, y.length)
}

test('withinOneEdit agrees with the optimal string alignment distance, surrogate pairs included', () => {
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
      // Less the joined forms of compounds (after its last word, spanning the compound) and the parts of a word joined by `.` or `_` (inside it).
      const words = tokenize(text).filter((token, i, all) => !all.slice(0, i).some((before) => before.start >= token.start || token.end <= before.end))
      assert.equal(
        words.map((token) => token.term),
        expected,
        JSON.stringify(text),
      )
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


test('hiragana and katakana are one', () => {
  assert.equal(indexTerms('ぷらいばしー'), indexTerms('プライバシー'))
  assert.ok(finds('ぷらいばしー', 'プライバシーポリシー'))
  assert.ok(finds('プライバシー', 'ぷらいばしー'))
  assert.equal(indexTerms('ゝあゞ'), indexTerms('ヽアヾ'), 'iteration marks too')
  // The offsets still point at the text as written.
  const text = 'ぷらいばしー'
  assert.equal(
    tokenize(text).map((token) => text.slice(token.start, token.end)),
    ['ぷら', 'らい', 'いば', 'ばし', 'し'],
  )
})

test('a long-vowel mark ending a kana word is optional, both ways', () => {
  assert.equal(indexTerms('コンピューター'), indexTerms('コンピュータ'))
  assert.ok(finds('コンピューター', 'コンピュータの使い方'))
  assert.ok(finds('コンピュータ', 'コンピューターの使い方'))
  assert.ok(finds('サーバー管理', 'サーバ管理'))
  assert.ok(finds('データー', 'データ・ベース'))
  // Inside a word it stays (ラーメン is not ラメン), and a word of one kana keeps it (カー is not カ).
  assert.is.not(JSON.stringify(indexTerms('ラーメン')), JSON.stringify(indexTerms('ラメン')))
  assert.ok(!finds('ラメン', 'ラーメン'))
  assert.equal(indexTerms('カー'), ['カー', 'ー'])
  // Hiragana before a katakana word's mark ends the word (the fold comes after).
  assert.equal(indexTerms('データーの'), ['デー', 'ータ', 'タノ', 'ノ'])
})

test('separators inside a run of katakana do not break it', () => {
  const joined = indexTerms('ソフトウェアエンジニア')
  for (const written of ['ソフトウェア・エンジニア', 'ソフトウェア＝エンジニア', 'ｿﾌﾄｳｪｱ･ｴﾝｼﾞﾆｱ', 'ソフトウェア エンジニア', 'ソフトウェア　エンジニア', 'ソフトウェア゠エンジニア']) {
    assert.equal(indexTerms(written), joined, written)
    assert.ok(finds('ソフトウェアエンジニア', written), written)
  }
  // Between other scripts they still break.
  assert.equal(indexTerms('東京 大阪'), ['東京', '京', '大阪', '阪'])
  assert.equal(indexTerms('ソフト 東京'), ['ソフ', 'フト', 'ト', '東京', '京'])
})

test('the iteration mark 々 keeps working', () => {
  assert.ok(finds('人々', '多くの人々が'))
  assert.ok(finds('時々', '時々雨'))
  assert.equal(indexTerms('人々'), ['人々', '々'])
})

test('compounds are also indexed joined: covid19, covid-19 and covid 19 find COVID-19', () => {
  assert.equal(indexTerms('COVID-19'), ['covid', '19', 'covid19'])
  assert.equal(indexTerms('COVID\u201019'), ['covid', '19', 'covid19'], 'the typographic hyphen')
  assert.equal(indexTerms('COVID\u201119'), ['covid', '19', 'covid19'], 'the non-breaking hyphen')
  assert.equal(indexTerms('2020\u20132021'), ['2020', '2021'], 'a dash joins nothing')
  assert.equal(indexTerms('e-mail a/b x_y example.com'), ['e', 'mail', 'email', 'a', 'b', 'ab', 'x_y', 'x', 'y', 'xy', 'example.com', 'example', 'com', 'examplecom'])
  for (const query of ['covid19', 'covid-19', 'covid 19', 'COVID_19', 'covid/19', 'covid\u201019']) assert.ok(finds(query, 'COVID-19 update'), query)
  assert.ok(finds('covid19', 'COVID\u201019 update'))
  for (const text of ['covid19', 'covid-19', 'covid_19', 'covid.19']) assert.ok(finds('covid-19', text), text)
  assert.ok(finds('email', 'send an e-mail'))
  assert.ok(finds('e-mail', 'send an email'))
  // Spaces and other punctuation make no compound.
  assert.equal(indexTerms('a - b, c+d'), ['a', 'b', 'c', 'd'])
  assert.is(joinedForm('-a-'), null)
})

test('English word forms are found by their Porter2 stem', () => {
  assert.ok(finds('learning', 'We learned a lot'))
  assert.ok(finds('migrating', 'Database migration guide'))
  assert.ok(finds('migration', 'Migrating the database'))
  assert.ok(finds('happiness', 'a happy customer'))
  assert.ok(!finds('running', 'a runny nose'), 'another stem')
  assert.is(stemOf('naïve'), null, 'only a–z words are stemmed')
  assert.is(stemOf('ab'), null)
  assert.ok(stemMatches('hope', 'hoping'))
})

test('an exact form ranks above a stemmed one, above a typo, above a prefix', () => {
  const [learning] = parseQueryTerms('learning')
  if (learning?.kind !== 'word') throw new Error('a word')
  assert.is(wordMatchWeight(learning, 'learning'), MATCH_WEIGHTS.exact)
  assert.is(wordMatchWeight(learning, 'learned'), MATCH_WEIGHTS.stem)
  assert.is(wordMatchWeight(learning, 'lerning'), MATCH_WEIGHTS.typo)
  assert.ok(wordMatchWeight(learning, 'learningxyz') < MATCH_WEIGHTS.typo)
  assert.ok(MATCH_WEIGHTS.exact > MATCH_WEIGHTS.stem && MATCH_WEIGHTS.stem > MATCH_WEIGHTS.typo && MATCH_WEIGHTS.typo > MATCH_WEIGHTS.prefix)
  for (let length = 1; length < 60; length++) for (let extra = 1; extra < 60; extra++) assert.ok(prefixWeightOf(length + extra, extra) < MATCH_WEIGHTS.typo)
})

function prefixWeightOf(keyLength: number, extra: number): number {
  const term = { kind: 'word' as const, term: 'x'.repeat(keyLength - extra), fuzzy: 0 as const, stem: null, joined: null }
  return wordMatchWeight(term, 'x'.repeat(keyLength))
}

test('-word is excluded; a lone -, a - inside a word and a lone quote are plain text, never an error', () => {
  const words = (terms: ReturnType<typeof parseQueryTerms>) => terms.map((term) => (term.kind === 'word' ? term.term : term.text))
  const { terms, excluded, phrases } = parseQuery('learning -database "a phrase" - x-y －移転 -COVID-19')
  assert.equal(words(terms), ['learning', 'a', 'phrase', 'x', 'y'])
  assert.equal(phrases.map((phrase) => phrase.key), ['a phrase'], 'a phrase is also its words')
  assert.equal(words(excluded), ['database', '移転', 'covid', '19'])
  for (const query of ['-', '""', '- -', '"', '"unbalanced', '--x', '😀', '-'.repeat(500)]) {
    const parsed = parseQuery(query)
    assert.ok(Array.isArray(parsed.terms) && Array.isArray(parsed.excluded), query)
  }
  assert.equal(words(parseQuery('"unbalanced quote').terms), ['unbalanced', 'quote'])
  assert.equal(words(parseQuery('--x').excluded), [], 'only a single - right before the word excludes it')
})

test('a CJK run of plain characters gives the terms and offsets of the general path, long-vowel marks and separators included', () => {
  const run = fc.array(fc.constantFrom('ア', 'カ', 'ー', 'ー', 'あ', 'か', '東', '京', '々', '・', '=', ' ', '゠', 'ヴ', 'ゔ', '한'), { minLength: 1, maxLength: 14 }).map((chars) => chars.join(''))
  fc.assert(
    fc.property(run, (r) => {
      assert.equal(cjkRunTokens(r, false), cjkRunTokens(r, true), JSON.stringify(r))
    }),
    { numRuns: 3000 },
  )
})

// Weighted to the characters where the hand-written scan and the expression could part: mid-word punctuation,
// compound joiners, digits, kana and katakana separators, marks, format characters, emoji, half-width kana, Thai.
const TRICKY = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'z', 'é', 'я', 'σ', '0', '7', ' ', ' ', '.', "'", '’', ':', ',', ';', '-', '/', '_', '·') },
  { weight: 3, arbitrary: fc.constantFrom('ア', 'カ', 'ー', 'あ', 'か', '東', '京', '々', '・', '=', '゠', 'ヴ', '한', '〇', '。', '「') },
  { weight: 2, arbitrary: fc.constantFrom('\u0301', '\u3099', '\u200d', '\ufe0f', '\u00ad', '😀', '𝐀', '𠮷', 'ｶ', 'ﾞ', 'ก', 'ข', '١', '\n', '&', '<') },
)

test('the pieces found by hand are the expression’s: same terms, offsets, CJK flags and pairs', () => {
  fc.assert(
    fc.property(fc.array(TRICKY, { maxLength: 30 }), (chars) => {
      const text = normalizeTerm(chars.join(''))
      assert.equal(scannedTokens(text, true), scannedTokens(text, false), JSON.stringify(text))
    }),
    { numRuns: 3000 },
  )
})

test('every BMP character is placed as the expression places it, between letters, digits and kana', () => {
  // Hint: 64 characters a text, each in its contexts (one scan per character costs seconds).
  for (let first = 0; first < 0x10000; first += 64) {
    let text = ''
    for (let code = first; code < first + 64; code++) {
      const char = String.fromCharCode(code)
      text += `${char}a${char}b 1${char}2 ア${char}カ `
    }
    const byHand = scannedTokens(text, true)
    const expected = scannedTokens(text, false)
    // Hint: compared by hand: `assert.equal` of every token would cost as much again.
    const same =
      byHand.tokens.length === expected.tokens.length &&
      byHand.tokens.every((token, i) => {
        const other = expected.tokens[i]
        return other !== undefined && token.term === other.term && token.start === other.start && token.end === other.end && token.cjk === other.cjk && token.headEnd === other.headEnd
      }) &&
      byHand.pairs.join() === expected.pairs.join()
    if (!same) assert.equal(byHand, expected, `U+${first.toString(16)}…U+${(first + 63).toString(16)}: ${JSON.stringify(text)}`)
  }
})

test.run()

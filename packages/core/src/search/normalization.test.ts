import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { finds } from './finds.test-util.ts'
import { indexTerms } from './analyzer.ts'
import { hasPhrase } from './phrase.ts'
import { compoundVariants, parseQuery, stemOf, stemRoot, withinOneEdit } from './query-terms.ts'

/*
 * One property per normalization rule of the analyzer and the query (issue 29), on random text:
 * a document's word is always found by the query forms the rule names, and never found
 * because of a normalization the rule does not name.
 */


const KATAKANA = [...'アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワンガギグゲゴパピプペポャュョッ']
const toHiragana = (char: string): string => String.fromCharCode(char.charCodeAt(0) - 0x60)
/** A katakana word of 2–6 characters, never ending in a long-vowel mark (it may hold one inside). */
const katakanaWord = fc
  .array(fc.oneof({ arbitrary: fc.constantFrom(...KATAKANA), weight: 5 }, { arbitrary: fc.constant('ー'), weight: 1 }), { minLength: 2, maxLength: 6 })
  .filter((chars) => chars[0] !== 'ー' && chars[chars.length - 1] !== 'ー' && !chars.join('').includes('ーー'))
  .map((chars) => chars.join(''))
const RUNS = { numRuns: 300 }

test('kana: a word written in hiragana or katakana is one word (or a mix, without a long-vowel mark)', () => {
  fc.assert(
    fc.property(katakanaWord, fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (word, flips) => {
      // Where a long-vowel mark ends a word depends on the script around it: its word is one script.
      const mixed = [...word].map((char, i) => (char !== 'ー' && (word.includes('ー') || flips[i] === true) ? toHiragana(char) : char)).join('')
      assert.equal(indexTerms(mixed), indexTerms(word), mixed)
      assert.ok(finds(mixed, `${word}です`) && finds(word, `${mixed}です`), mixed)
    }),
    RUNS,
  )
})

test('kana: another kana is another word (voicing, size and the long-vowel mark inside a word count)', () => {
  fc.assert(
    fc.property(katakanaWord, fc.nat(5), fc.constantFrom(...KATAKANA), (word, at, other) => {
      const chars = [...word]
      const i = at % chars.length
      if (chars[i] === other || chars[i] === 'ー') return
      chars[i] = other
      const changed = chars.join('')
      // Two words differing in one kana: the changed one is not found where only the first is (unless its bigrams all stand elsewhere in it).
      const inWord = new Set(indexTerms(word))
      if (indexTerms(changed).slice(0, -1).every((gram) => inWord.has(gram))) return
      assert.ok(!finds(changed, `「${word}」`), `${changed} in ${word}`)
    }),
    RUNS,
  )
})

const SMALL_VOWELS: [small: string, full: string][] = [['ァ', 'ア'], ['ィ', 'イ'], ['ゥ', 'ウ'], ['ェ', 'エ'], ['ォ', 'オ'], ['ヵ', 'カ'], ['ヶ', 'カ']]

test('small kana: a small vowel, ヵ or ヶ is its full-size kana (either script), both ways; ャ ュ ョ ッ are not', () => {
  fc.assert(
    fc.property(katakanaWord, fc.nat(5), fc.constantFrom(...SMALL_VOWELS), fc.boolean(), (word, at, [small, full], hiragana) => {
      const chars = [...word]
      const i = at % chars.length
      if (chars[i] === 'ー') return
      // Hint: where a long-vowel mark ends a word depends on the script around it: hiragana only in a word without one.
      const withSmall = [...chars.slice(0, i), hiragana && !word.includes('ー') ? toHiragana(small) : small, ...chars.slice(i + 1)].join('')
      const withFull = [...chars.slice(0, i), full, ...chars.slice(i + 1)].join('')
      assert.equal(indexTerms(withSmall), indexTerms(withFull), withSmall)
      assert.ok(finds(withSmall, `${withFull}です`) && finds(withFull, `${withSmall}です`), withSmall)
    }),
    RUNS,
  )
  assert.ok(finds('ウィンドウズ', 'ウインドウズの設定') && finds('ソフトウエア', 'ソフトウェア開発') && finds('3か月', '3ヶ月ごと'))
  for (const [small, full] of [['ャ', 'ヤ'], ['ュ', 'ユ'], ['ョ', 'ヨ'], ['ッ', 'ツ'], ['ょ', 'よ']]) assert.not.equal(indexTerms(`ビ${small}ウ`), indexTerms(`ビ${full}ウ`), small)
  assert.ok(!finds('ビヨウイン', 'ビョウインの予約'), 'a beauty salon is no hospital')
})

test('long-vowel mark: a kana word of 2+ characters is found with or without its trailing mark, both ways', () => {
  fc.assert(
    fc.property(katakanaWord, fc.constantFrom('', 'の', 'を', '管理', '・', '。', ' '), (word, after) => {
      assert.ok(finds(`${word}ー`, `${word}${after}`), `${word}ー in ${word}${after}`)
      assert.ok(finds(word, `${word}ー${after}`), `${word} in ${word}ー${after}`)
      assert.ok(finds(`${word}ー`, `${word}ー${after}`))
    }),
    RUNS,
  )
})

test('long-vowel mark: one followed by kana of its word stays (ラーメン is not ラメン)', () => {
  fc.assert(
    fc.property(fc.constantFrom(...KATAKANA), katakanaWord, (head, rest) => {
      if (rest.startsWith('ー')) return
      assert.ok(!finds(`${head}${rest}`, `${head}ー${rest}`) || indexTerms(`${head}${rest}`).every((term) => indexTerms(`${head}ー${rest}`).includes(term)))
      assert.is.not(JSON.stringify(indexTerms(`${head}ー${rest}`)), JSON.stringify(indexTerms(`${head}${rest}`)))
    }),
    RUNS,
  )
})

test('separators: ・ ＝ ･ ゠ and spaces between katakana do not split a compound', () => {
  fc.assert(
    fc.property(katakanaWord, katakanaWord, fc.constantFrom('・', '＝', '･', '゠', ' ', '　', ' ・ '), (a, b, separator) => {
      assert.equal(indexTerms(`${a}${separator}${b}`), indexTerms(`${a}${b}`), `${a}${separator}${b}`)
      assert.ok(finds(`${a}${b}`, `${a}${separator}${b}`))
    }),
    RUNS,
  )
})

test('compounds typed together: a long-vowel mark after 2+ kana, before katakana, may end the first word', () => {
  fc.assert(
    fc.property(katakanaWord, katakanaWord, fc.constantFrom('・', '＝', ' ', ''), (a, b, separator) => {
      if (b.length < 3) return
      assert.ok(finds(`${a}ー${b}`, `${a}ー${separator}${b}`), `${a}ー${b} in ${a}ー${separator}${b}`)
      assert.ok(finds(`${a}ー${b}`, `${a}${separator}${b}`), `${a}ー${b} in ${a}${separator}${b}`)
      assert.ok(!finds(`"${a}ー${b}"`, `${a}${separator}${b}`) || indexTerms(`${a}ー${b}`).every((term) => indexTerms(`${a}${separator}${b}`).includes(term)), 'quoted: as written')
    }),
    RUNS,
  )
  fc.assert(
    fc.property(fc.constantFrom(...KATAKANA), katakanaWord, fc.constantFrom('', 'の', '管理'), (head, rest, after) => {
      // A mark after one kana (ラーメン) is the word's own: no variant drops it.
      assert.equal(compoundVariants(`${head}ー${rest}${after}`).filter((variant) => variant.startsWith(head + rest.charAt(0))), [])
    }),
    RUNS,
  )
  assert.equal(compoundVariants('コンピューターシステム'), ['コンピュタシステム'])
  assert.equal(compoundVariants('サーバー管理'), [], 'a mark before kanji ends a word already')
  assert.equal(compoundVariants('コンピュータ'), [], 'one character after the mark')
  assert.equal(compoundVariants('アイーアイーアイーアイーアイウ'), ['アイアイアイアイアイウ'])
})

test('compounds written together: a word of a compound is found with or without its trailing mark, every mix', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(katakanaWord, fc.boolean(), fc.boolean()), { minLength: 2, maxLength: 4 }), (words) => {
      // Every word but the last ends in `ー` in the document (`doc`) or the query (`query`), or not.
      const last = words.length - 1
      const written = (which: 1 | 2): string => words.map((word, i) => word[0] + (i < last && word[which] ? 'ー' : '')).join('')
      const doc = written(1)
      const query = written(2)
      if ((words[last]?.[0].length ?? 0) < 3) return
      assert.ok(finds(query, doc), `${query} in ${doc}`)
    }),
    RUNS,
  )
  assert.ok(finds('ユーザインタフェース', 'ユーザーインターフェース'))
  assert.ok(finds('ユーザーインターフェース', 'ユーザインタフェース'))
  assert.ok(finds('ユーザーインタフェース', 'ユーザインターフェース'))
  const quoted = parseQuery('"ユーザインタフェース"').phrases[0]
  assert.ok(quoted !== undefined && !hasPhrase(['ユーザーインターフェース'], quoted) && hasPhrase(['ユーザインタフェース'], quoted), 'quoted: as written')
})

test('separators: other punctuation, and separators next to other scripts, still split', () => {
  fc.assert(
    fc.property(katakanaWord, katakanaWord, fc.constantFrom('、', '。', '「', '!', '-'), (a, b, separator) => {
      // The run ends at the separator: the terms are those of the two words apart.
      assert.equal(indexTerms(`${a}${separator}${b}`), [...indexTerms(a), ...indexTerms(b)], `${a}${separator}${b}`)
    }),
    RUNS,
  )
  assert.equal(indexTerms('東京 大阪'), ['東京', '京', '大阪', '阪'])
})

const alnum = fc.stringMatching(/^[a-z0-9]{1,6}$/)

test('compounds: words joined by - . / _ are found joined, split and as written', () => {
  fc.assert(
    fc.property(alnum, alnum, fc.constantFrom('-', '.', '/', '_'), (a, b, joiner) => {
      const text = `see ${a}${joiner}${b} now`
      for (const query of [`${a}${b}`, `${a}${joiner}${b}`, `${a} ${b}`, `${a}-${b}`]) assert.ok(finds(query, text), `${query} in ${text}`)
      assert.ok(finds(`${a}${joiner}${b}`, `see ${a}${b} now`), `${a}${joiner}${b} finds ${a}${b}`)
    }),
    RUNS,
  )
})

test('compounds: words apart (a space, other punctuation) are not joined', () => {
  fc.assert(
    fc.property(alnum, alnum, fc.constantFrom(' ', ', ', ' - ', '+', '&'), (a, b, apart) => {
      const joined = `${a}${b}`
      if (indexTerms(`${a}${apart}${b}`).some((term) => term.startsWith(joined))) return
      // The joined word is found only as a prefix, a typo of a word, or not at all.
      const found = finds(joined, `${a}${apart}${b}`)
      const stem = stemOf(joined)
      const explained = [a, b].some(
        (word) => word.startsWith(joined) || (/^[a-z]{5,}$/.test(joined) && withinOneEdit(joined, word)) || (stem !== null && stemOf(word) === stem && word.startsWith(stemRoot(stem))),
      )
      // A word of letters then digits (or digits then letters) is also its two parts, each found as the beginning of a word.
      const parts = /^(\p{L}+)(\p{Nd}+)$|^(\p{Nd}+)(\p{L}+)$/u.exec(joined)
      const split = parts !== null && [parts[1] ?? parts[3] ?? '', parts[2] ?? parts[4] ?? ''].every((part) => [a, b].some((word) => word.startsWith(part)))
      assert.is(found, explained || split, `${joined} in ${a}${apart}${b}`)
    }),
    RUNS,
  )
})

test('split and joined as typed: a word of letters and digits finds its parts apart, two words typed apart find them joined', () => {
  const letters = fc.stringMatching(/^[a-z]{2,8}$/)
  const digits = fc.stringMatching(/^[0-9]{1,4}$/)
  fc.assert(
    fc.property(letters, digits, (word, number) => {
      const cases: [typed: string, written: string][] = [
        [`${word}${number}`, `${word} ${number}`],
        [`${number}${word}`, `${number} ${word}`],
        [`${word} ${number}`, `${word}${number}`],
        [`${number} ${word}`, `${number}${word}`],
      ]
      for (const [typed, written] of cases) assert.ok(finds(typed, `see ${written} now`), `${typed} in ${written}`)
    }),
    RUNS,
  )
  fc.assert(
    fc.property(alnum, alnum, (a, b) => {
      // One of them a piece of a word: one character, or digits.
      if (![a, b].some((word) => word.length === 1 || /^[0-9]+$/.test(word))) return
      assert.ok(finds(`${a} ${b}`, `see ${a}${b} now`), `${a} ${b} in ${a}${b}`)
      assert.ok(finds(`${a}\u3000${b}`, `see ${a}${b} now`), 'an ideographic space')
    }),
    RUNS,
  )
  assert.ok(!finds('home page', 'our homepage') && !finds('wi fi', 'free WiFi'), 'two longer words are not joined')
  assert.ok(finds('e mail', 'our email address'))
  assert.ok(finds('iphone15', 'the iPhone 15 Pro'))
  assert.ok(finds('iphone 15', 'the iPhone15 Pro'))
  assert.ok(!finds('"e mail"', 'our email address') || !parseQuery('"e mail"').terms.some((term) => (term.synonyms ?? []).length > 0), 'quoted: as written')
  assert.ok(!finds('mail -e', 'our email address'), 'an excluded word is not joined')
})

const ENGLISH = ['learn', 'learned', 'learning', 'learns', 'learner', 'migrate', 'migrating', 'migration', 'migrations', 'happy', 'happiness', 'happily', 'connect', 'connection', 'connected', 'run', 'running', 'runs', 'organize', 'organization', 'generous', 'general', 'relate', 'relation', 'relational', 'hope', 'hoping', 'hopeful', 'compute', 'computer', 'computing']

test('stems: a word finds the forms of its stem that begin with the stem’s root, and only those beyond prefixes and typos', () => {
  fc.assert(
    fc.property(fc.constantFrom(...ENGLISH), fc.constantFrom(...ENGLISH), (query, word) => {
      const stem = stemOf(query)
      const byStem = stem !== null && stemOf(word) === stem && word.startsWith(stemRoot(stem))
      const byPrefix = word.startsWith(query)
      const byTypo = query.length >= 5 && withinOneEdit(query, word)
      assert.is(finds(query, `we ${word} today`), byStem || byPrefix || byTypo, `${query} → ${word}`)
    }),
    { numRuns: 500 },
  )
})

test.run()

import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { foldKanaCode, isTermBreakAt, normalizeTerm, tokenize, tokenizeStretch } from './analyzer.ts'
import type { Token } from './analyzer.ts'
import { FragmentSource, fragmentsIn, highlightFragments, highlightText, highlightWork, MatchText, matchSpans, occurrencesIn } from './highlight.ts'
import type { Span } from './highlight.ts'
import type { QueryTerm } from './query-terms.ts'
import { parseQueryTerms, wordMatches } from './query-terms.ts'
import { decodeEntities, stripHtml } from './strip-html.ts'

/*
 * The fast paths of highlighting against the plain ways they replace: spans found by
 * tokenizing only the stretches around the query's substrings must be the spans of the whole
 * text tokenized, and stripHtml's skipped steps must not change its text (the index is built
 * from it).
 */

/** `matchSpans` as it was: the whole text tokenized. */
function referenceSpans(text: string, terms: readonly QueryTerm[]): Span[] {
  if (terms.length === 0 || text === '') return []
  const normalized = normalizeTerm(text)
  const tokens = tokenize(text)
  const spans: Span[] = []
  for (const term of terms) {
    if (term.kind === 'word') {
      for (const token of tokens) if (!token.cjk && wordMatches(term, token.term)) spans.push({ start: token.start, end: token.end })
    } else if (term.prefix) {
      for (const token of tokens) if (token.cjk && token.term.startsWith(term.text)) spans.push({ start: token.start, end: token.headEnd })
    } else {
      const found: Span[] = []
      for (let i = 0; i + term.grams.length <= tokens.length; i++) {
        if (term.grams.every((gram, k) => tokens[i + k]?.cjk === true && tokens[i + k]?.term === gram)) {
          found.push({ start: tokens[i]?.start ?? 0, end: tokens[i + term.grams.length - 1]?.end ?? 0 })
        }
      }
      if (found.length === 0) for (const token of tokens) if (token.cjk && term.grams.includes(token.term)) found.push({ start: token.start, end: token.end })
      spans.push(...found)
    }
  }
  // A span ending on kana takes the long-vowel marks after it in.
  for (const span of spans) {
    if (span.end > span.start && /[\p{Script=Hiragana}\p{Script=Katakana}]$/u.test(text.slice(0, span.end))) while (/[ーｰ]/.test(text.charAt(span.end))) span.end++
  }
  spans.sort((a, b) => a.start - b.start || a.end - b.end)
  const merged: Span[] = []
  for (const span of spans) {
    const last = merged[merged.length - 1]
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end)
    else merged.push({ ...span })
  }
  return merged
}

// Pieces that exercise every kind of term and break: words with inner punctuation, digits,
// CJK runs (with marks), a script the segmenter splits, breaks and non-breaks of both kinds.
const PARTS = [
  'office', 'offices', 'ofice', 'Office', 'moving', "don't", 'e-mail', 'example.com', '3.14', '1,000', 'a:b', 'x_y', '_', '__x', 'x2',
  '東京', '京都', '東京都庁', 'オフィス', '移転', 'お知らせ', '葛\u{e0100}', '京\ufe00', '都\u20dd', '移\u0301', '東', '\ufe00', 'の', 'ー', 'ภาษาไทย',
  ' ', '  ', '\n', '.', ',', ':', "'", '-', '/', '(', ')', '!', '?', '。', '、', '「', '」', '・', '\u00ad', '\u200b', 'é', 'e\u0301',
  'ソフト', 'ウェア', 'エンジニア', 'ぷらいばしー', 'コンピューター', 'ｼｰｰ', '=', 'covid', '19', 'covid-19', 'e-mail', 'learned', 'migration',
]
const text = fc.array(fc.constantFrom(...PARTS), { maxLength: 24 }).map((parts) => parts.join(''))
const query = fc.array(fc.constantFrom('office', 'offic', 'ofice', 'moving', 'movin', 'don', 'mail', 'com', '3', '東京', '京', '京都', '東京都', '移転', 'お知らせ', 'の', 'ー', 'ภาษา', 'x', 'e', 'ソフトウェアエンジニア', 'プライバシー', 'コンピュータ', 'covid-19', 'covid19', 'learning', 'migrating', 'e-mail'), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '))

test('spans from the stretches around the query are the spans of the whole text', () => {
  fc.assert(
    fc.property(text, query, (t, q) => {
      const terms = parseQueryTerms(q)
      assert.equal(matchSpans(t, terms), referenceSpans(t, terms), `${JSON.stringify(t)} / ${q}`)
    }),
    { numRuns: 4000 },
  )
})

test('a word is marked in a compound\'s joined form also where the text holds the word, its stem or a typo of it as typed', () => {
  const parts = ['covid-19', 'covid19', 'covid', '19', 'e-mail', 'email', 'e-mails', 'mail', 'learn-ing', 'learning', 'learned', 'of-fice', 'office', 'ofice', 'x', ' ', '.', '-', '「']
  const compounds = fc.array(fc.constantFrom(...parts), { maxLength: 12 }).map((chosen) => chosen.join(''))
  const words = fc.constantFrom('covid19', 'covid-19', 'email', 'emailing', 'e-mail', 'learning', 'office', 'ofice', 'offices', 'mail')
  fc.assert(
    fc.property(compounds, words, (t, q) => {
      const terms = parseQueryTerms(q)
      assert.equal(matchSpans(t, terms), referenceSpans(t, terms), `${JSON.stringify(t)} / ${q}`)
    }),
    { numRuns: 3000 },
  )
})

test('one query highlighting many texts (the items of a search) marks each as a query made for it alone', () => {
  fc.assert(
    fc.property(fc.array(text, { minLength: 2, maxLength: 6 }), query, (texts, q) => {
      const terms = parseQueryTerms(q)
      for (const t of texts) assert.equal(matchSpans(t, terms), matchSpans(t, parseQueryTerms(q)), `${JSON.stringify(t)} / ${q}`)
    }),
    { numRuns: 1000 },
  )
})

test('every place of a needle in a text is found, long needles repeating themselves or not', () => {
  const unit = fc.constantFrom('a', 'b', 'ab', 'aab', 'ア', 'アー')
  const word = fc.array(unit, { minLength: 1, maxLength: 12 }).map((units) => units.join(''))
  fc.assert(
    fc.property(fc.array(word, { maxLength: 30 }).map((words) => words.join('')), word, fc.integer({ min: 1, max: 4 }), (t, needle, times) => {
      const n = needle.repeat(times)
      const places: number[] = []
      for (let at = 0; at + n.length <= t.length; at++) if (t.startsWith(n, at)) places.push(at)
      const found: number[] = []
      occurrencesIn(t, n, found)
      assert.equal(found, places, `${t} / ${n}`)
    }),
    { numRuns: 3000 },
  )
})

test('a stretch between term breaks tokenizes as it does inside the whole text', () => {
  fc.assert(
    fc.property(text, (t) => {
      const normalized = normalizeTerm(t)
      if (normalized.length !== t.length || t.normalize('NFKC') !== t) return
      const whole = tokenize(t)
      const pieces: Token[] = []
      let from = 0
      for (let i = 0; i <= normalized.length; i++) {
        if (i === normalized.length || isTermBreakAt(normalized, i)) {
          tokenizeStretch(normalized, from, i, pieces)
          from = i + 1
        }
      }
      assert.equal(pieces, whole, JSON.stringify(t))
    }),
    { numRuns: 4000 },
  )
})

test('fragments of prepared texts are those of the texts, searched again and again', () => {
  const source = new FragmentSource(['Summary about cats.', `${'Body about dogs. '.repeat(60)}Body about cats and dogs.`])
  for (const q of ['cats', 'dogs', 'cat dog', 'zzz', 'cats', 'dgos']) {
    const terms = parseQueryTerms(q)
    assert.equal(fragmentsIn(source, terms), highlightFragments(source.texts, terms))
  }
})

// Text and queries of few characters, repeated: the runs of one repeated character or bigram that
// make searching for a substring or a sequence of grams costly, and more than a few grams per query.
// (No long-vowel mark or separator inside the text's runs: a bigram spanning one is not highlighted
// when it is no substring of the text, a known gap of the needles, not of these scans.)
const REPEATED = ['ア', 'あ', 'イ', 'い', 'ウ', '東', '京', '。', 'a', 'ab', 'アー。', 'a ']
// A unit of one to three pieces, repeated: long needles that overlap themselves, as in `アーアー…`.
const repeats = <T>(piece: fc.Arbitrary<T>, most: number) =>
  fc.tuple(fc.array(piece, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: most })).map(([unit, times]) => Array.from({ length: times }, () => unit).flat())
const repeatedText = fc.array(repeats(fc.constantFrom(...REPEATED), 20), { maxLength: 4 }).map((parts) => parts.flat().join(''))
const repeatedQuery = fc
  .array(fc.oneof(repeats(fc.constantFrom('ア', 'ー', 'あ', 'イ', '東', '京', 'a'), 12), fc.array(fc.constantFrom('ア', 'ー', 'あ', 'イ', 'ウ', 'エ', 'オ', 'カ', 'キ', '東', '京', '都', 'a', 'b'), { minLength: 1, maxLength: 24 })), { minLength: 1, maxLength: 2 })
  .map((runs) => runs.map((run) => run.join('')).join(' '))

test('spans of repeated characters and long queries are the spans of the whole text', () => {
  fc.assert(
    fc.property(repeatedText, repeatedQuery, (t, q) => {
      const terms = parseQueryTerms(q)
      assert.equal(matchSpans(t, terms), referenceSpans(t, terms), `${JSON.stringify(t)} / ${q}`)
    }),
    { numRuns: 3000 },
  )
})

test('overlapping matches of a query with long-vowel marks, matched over the tokens, are the spans of the whole text', () => {
  for (const text of ['アーアーアーアーア', 'アーアーアーアーアー', 'あーあーあーあー・アーアー', 'ーアーアーアーア東']) {
    for (const query of ['アーアーア', 'ーアーア', 'アーアーアーア', 'あーあー']) {
      const terms = parseQueryTerms(query)
      assert.equal(matchSpans(text, terms), referenceSpans(text, terms), `${text} / ${query}`)
    }
  }
})

test('highlighting costs steps linear in the text and the query, on the texts and queries that make it costliest', () => {
  const kanji = Array.from({ length: 500 }, (_, i) => String.fromCharCode(0x4e00 + i * 7)).join('')
  const words = Array.from({ length: 100 }, (_, i) => `run${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}`).join(' ')
  const texts = ['アー'.repeat(2500), 'ア'.repeat(5000), 'あー'.repeat(2500), kanji.repeat(10), 'running '.repeat(625), 'a'.repeat(5000)]
  const queries = ['アー'.repeat(250), 'ア'.repeat(500), `${'ア'.repeat(499)}イ`, `${'あー'.repeat(249)}い`, kanji, words, 'a'.repeat(500)]
  for (const text of texts) {
    for (const query of queries) {
      const terms = parseQueryTerms(query)
      const before = highlightWork()
      highlightText(text, terms)
      highlightFragments([text], terms)
      const steps = highlightWork() - before
      // Linear in the text and the query for a CJK run (the n × m scans did 400,000 to 2,500,000 steps here), and for each query word a few passes over the text.
      const words = terms.filter((term) => term.kind === 'word').length
      assert.ok(steps <= 20 * (text.length + query.length) + 8 * words * text.length, `${text.slice(0, 4)}… / ${query.slice(0, 4)}…: ${steps} steps`)
    }
  }
})

test('a prepared text tells katakana separated as the expression does, and folds its kana a code unit at a time', () => {
  const SEPARATED = /[\p{Script=Katakana}\u30fc]\p{M}*[\u30fb=\u30a0 ]+\p{Script=Katakana}/u
  const char = fc.constantFrom('ア', 'ー', 'ｱ', '\u{1b000}', 'あ', 'ぷ', '東', 'a', ' ', '・', '=', '゠', '\u0301', '\u3099', '\u{e0100}', '\ud800', '\udc00', '。', '\ufeff')
  fc.assert(
    fc.property(fc.array(char, { maxLength: 12 }).map((chars) => chars.join('')), (t) => {
      const source = new MatchText(t)
      assert.is(source.separated(t), SEPARATED.test(t), JSON.stringify(t))
      assert.is(source.folded(t), [...t].map((c) => (c.length === 1 ? String.fromCharCode(foldKanaCode(c.charCodeAt(0))) : c)).join(''), JSON.stringify(t))
    }),
    { numRuns: 3000 },
  )
  // Longer than the buffer folding keeps, and folded again after it (its buffer as the long text left it).
  const long = `\ufeff${'あア東'.repeat(30_000)}ぷ`
  assert.is(new MatchText(long).folded(long), `\ufeff${'アア東'.repeat(30_000)}プ`)
  assert.is(new MatchText('ぷらいばしー').folded('ぷらいばしー'), 'プライバシー')
})

/** `stripHtml` as it was: every step run on every text. */
function referenceStrip(html: string): string {
  const BLOCK = /^\/?(p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|tr|td|th|table|thead|tbody|section|article|header|footer|aside|nav|blockquote|pre|figure|figcaption|img|main)\b/i
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, ' ').trim()
  const stripped = html
    .replace(/<!--[\s\S]*?(-->|$)/g, ' ')
    .replace(/<(script|style|template)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
    .replace(/<\/?([a-z][^\s/>]*)([^>"']|"[^"]*"|'[^']*')*>/gi, (tag) => (BLOCK.test(tag.slice(1)) ? ' ' : ''))
  return decodeEntities(stripped).replace(/\s+/g, ' ').trim()
}

test('stripHtml skips only steps that would change nothing', () => {
  const html = fc
    .array(
      fc.constantFrom(
        '<p>', '</p>', '<P class="x">', '<!-- c', '-->', '<script>', '</script >', '<STYLE>', '<template>', '</template>', '<b>', '</b>',
        '<br/>', '<a href="x>y">', "<img alt='>'>", ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2028', '\ufeff', '\u3000', '&amp;', '&#x41;',
        '&nbsp;', '&bogus;', '&', '<', '>', '"', "'", 'text', '東京', '-',
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(''))
  fc.assert(fc.property(html, (h) => stripHtml(h) === referenceStrip(h)), { numRuns: 20000 })
})

test.run()

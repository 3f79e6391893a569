import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isTermBreakAt, normalizeTerm, tokenize, tokenizeStretch } from './analyzer.ts'
import type { Token } from './analyzer.ts'
import { FragmentSource, fragmentsIn, highlightFragments, matchSpans } from './highlight.ts'
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

import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { stripHtml, stripHtmlByExpressions } from './strip-html.ts'

// Pieces of markup, well and badly formed: the one-pass reading must agree with the expressions on all of them.
const PIECES = [
  '<', '>', '/', '</', '"', "'", '=', ' ', '  ', '\n', '\t', '\u00a0', '\u3000', '\ufeff', '\u2028', '\u180e', '-', '_', '!', '<!--', '-->',
  'p', 'P', 'pre', 'b', 'br', 'div', 'h1', 'H6', 'h7', 'img', 'a', 'span', 'script', 'Script', 'style', 'template', 'scripts',
  'x', 'word', 'ſ', 'é', '東京', '&', ';', '&amp;', '&AMP;', '&lt;', '&#39;', '&#x41;', '&#0;', '&nbsp;', '&bogus;', 'href', 'class',
]
const markup = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''))
const tag = fc.tuple(fc.constantFrom('', '/'), fc.constantFrom('p', 'b', 'DIV', 'h2', 'a', 'em', 'li', 'span', 'h2x'), fc.constantFrom('', ' class="x"', " data-x='a>b'", ' title="1 > 0"', ' /', ' a=b'))
  .map(([slash, name, attrs]) => `<${slash}${name}${attrs}>`)
const article = fc.array(fc.oneof(tag, fc.constantFrom('Office', ' move ', '東京', '&amp;', '\n', '  ', 'x')), { maxLength: 30 }).map((pieces) => pieces.join(''))

test('the one-pass reading strips exactly as the expressions do, on any markup', () => {
  fc.assert(fc.property(fc.oneof(markup, article), (html) => assert.is(stripHtml(html), stripHtmlByExpressions(html), JSON.stringify(html))), { numRuns: 5000 })
})

test('tags go, block ends separate words, entities are decoded, whitespace collapses', () => {
  assert.is(stripHtml('<p>Office</p><p>move</p>'), 'Office move')
  assert.is(stripHtml('Off<b>ice</b> <a href="/x?a=1&amp;b=2" title="a > b">move</a>'), 'Office move')
  assert.is(stripHtml('<h2 class="t">To&nbsp;Tokyo</h2>\n\t<br/>next&#x41;'), 'To Tokyo next' + 'A')
  assert.is(stripHtml('a <!-- hidden --> b <script>var x = "<p>"</script> c'), 'a b c')
  assert.is(stripHtml('1 < 2 and 3 > 2'), '1 < 2 and 3 > 2')
  assert.is(stripHtml('  plain\u3000text  '), 'plain text')
})

test.run()

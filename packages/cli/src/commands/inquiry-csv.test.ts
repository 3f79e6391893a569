import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { csvCell, csvRow } from './inquiry-csv.ts'

test('plain cells are written as they are, null as empty', () => {
  assert.is(csvCell('abc'), 'abc')
  assert.is(csvCell('山田 太郎'), '山田 太郎')
  assert.is(csvCell(2), '2')
  assert.is(csvCell(null), '')
})

test('cells with quotes, commas or line breaks are quoted, quotes doubled', () => {
  assert.is(csvCell('a,b'), '"a,b"')
  assert.is(csvCell('say "hi"'), '"say ""hi"""')
  assert.is(csvCell('line 1\nline 2'), '"line 1\nline 2"')
  assert.is(csvCell('cr\rlf'), '"cr\rlf"')
})

test('untrusted cells that a spreadsheet would run as a formula get a leading quote mark', () => {
  for (const text of ['=1+1', '+81 3 1234', '-2', '@SUM(A1)', '\tx']) {
    assert.is(csvCell(text, { untrusted: true }), `'${text}`, text)
    assert.is(csvCell(text), text)
  }
  assert.is(csvCell('=HYPERLINK("x")', { untrusted: true }), `"'=HYPERLINK(""x"")"`)
  assert.is(csvCell('a=1', { untrusted: true }), 'a=1')
})

test('a row joins cells with commas and ends with CRLF', () => {
  assert.is(csvRow(['a', '"b,c"', '']), 'a,"b,c",\r\n')
})

test.run()

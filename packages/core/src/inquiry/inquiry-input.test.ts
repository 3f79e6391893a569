import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import type { InquiryInputResult } from './inquiry-input.ts'
import { INQUIRY_FIELDS, parseInquiryInput } from './inquiry-input.ts'

const valid = {
  category_code: 'general',
  title: 'Question about pricing',
  content: 'Hello,\nhow much is it?',
  inquirer_name: '山田 太郎',
  inquirer_email: 'taro@example.co.jp',
}

function details(result: InquiryInputResult): ErrorDetail[] {
  if (result.ok) throw new Error('expected the body to be refused')
  return result.details
}

function messageOf(body: unknown, field: string): string | undefined {
  return details(parseInquiryInput(body)).find((detail) => detail.field === field)?.message
}

function fields(body: unknown): string[] {
  return details(parseInquiryInput(body)).map((detail) => detail.field)
}

const shape = suite('parseInquiryInput')

shape('a minimal valid body passes, trimmed, with priority 2 and optional fields null', () => {
  const result = parseInquiryInput({ ...valid, title: '  Question  ', inquirer_email: ' taro@example.co.jp\n' })
  assert.equal(result, {
    ok: true,
    value: {
      category_code: 'general',
      title: 'Question',
      content: 'Hello,\nhow much is it?',
      priority: 2,
      inquirer_name: '山田 太郎',
      inquirer_email: 'taro@example.co.jp',
      inquirer_phone: null,
      inquirer_company: null,
      inquirer_department: null,
    },
  })
})

shape('every optional field is kept when given', () => {
  const result = parseInquiryInput({ ...valid, priority: 3, inquirer_phone: '+81 (3) 1234-5678', inquirer_company: '株式会社テスト', inquirer_department: '営業部' })
  assert.ok(result.ok)
  if (!result.ok) return
  assert.is(result.value.priority, 3)
  assert.is(result.value.inquirer_phone, '+81 (3) 1234-5678')
  assert.is(result.value.inquirer_company, '株式会社テスト')
  assert.is(result.value.inquirer_department, '営業部')
})

shape('null, absent and blank optional fields all mean "not given"', () => {
  const result = parseInquiryInput({ ...valid, priority: null, inquirer_phone: null, inquirer_company: '   ', inquirer_department: '' })
  assert.ok(result.ok)
  if (!result.ok) return
  assert.is(result.value.priority, 2)
  assert.is(result.value.inquirer_phone, null)
  assert.is(result.value.inquirer_company, null)
  assert.is(result.value.inquirer_department, null)
})

shape('a body that is not an object is one detail on field body', () => {
  for (const body of [null, undefined, 'text', 42, true, [], [valid]]) {
    assert.equal(details(parseInquiryInput(body)), [{ field: 'body', message: 'must be a JSON object' }], String(body))
  }
})

shape('an empty object reports every required field at once, and only those', () => {
  assert.equal(fields({}), ['category_code', 'title', 'content', 'inquirer_name', 'inquirer_email'])
  assert.is(messageOf({}, 'title'), 'is required')
})

shape('every invalid field is reported, one detail each, in field order, unknown fields last', () => {
  const body = {
    zeta: 1,
    category_code: 7,
    title: 'x'.repeat(201),
    content: '',
    priority: 1.5,
    inquirer_name: null,
    inquirer_email: 'not an address',
    inquirer_phone: 'call me',
    inquirer_company: 'c'.repeat(201),
    inquirer_department: false,
    alpha: 2,
  }
  const found = details(parseInquiryInput(body))
  assert.equal(
    found.map((d) => d.field),
    [...INQUIRY_FIELDS, 'zeta', 'alpha'],
  )
  assert.equal(found, [
    { field: 'category_code', message: 'must be a string' },
    { field: 'title', message: 'must be at most 200 characters' },
    { field: 'content', message: 'must not be empty' },
    { field: 'priority', message: 'must be the integer 1 (low), 2 (medium) or 3 (high)' },
    { field: 'inquirer_name', message: 'is required' },
    { field: 'inquirer_email', message: 'must be a valid e-mail address, like name@example.com' },
    { field: 'inquirer_phone', message: 'may contain only digits, spaces and + - ( )' },
    { field: 'inquirer_company', message: 'must be at most 200 characters' },
    { field: 'inquirer_department', message: 'must be a string' },
    { field: 'zeta', message: 'is not a known field' },
    { field: 'alpha', message: 'is not a known field' },
  ])
})

shape('required strings must not be empty after trimming', () => {
  for (const field of ['category_code', 'title', 'content', 'inquirer_name', 'inquirer_email']) {
    assert.is(messageOf({ ...valid, [field]: ' \t\n\u3000 ' }, field), 'must not be empty', field)
  }
})

shape('limits are counted in code points after trimming, at the edge exactly', () => {
  const limits: Record<string, number> = { title: 200, content: 10_000, inquirer_name: 100, inquirer_company: 200, inquirer_department: 200 }
  for (const [field, max] of Object.entries(limits)) {
    // Hint: "𠮷" is two UTF-16 units but one character; the limit must count it once.
    assert.ok(parseInquiryInput({ ...valid, [field]: ` ${'𠮷'.repeat(max)} ` }).ok, `${field} at ${max}`)
    assert.is(messageOf({ ...valid, [field]: 'あ'.repeat(max + 1) }, field), `must be at most ${max.toLocaleString('en-US')} characters`, field)
  }
})

shape('an e-mail address is limited to 254 characters', () => {
  const local = 'a'.repeat(64)
  const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.jp`
  const address = `${local}@${domain}`
  assert.is(address.length, 254)
  assert.ok(parseInquiryInput({ ...valid, inquirer_email: address }).ok)
  assert.is(messageOf({ ...valid, inquirer_email: `${address}x` }, 'inquirer_email'), 'must be at most 254 characters')
})

shape('a phone number has at most 30 of 0-9 + - ( ) and space, and a digit', () => {
  assert.ok(parseInquiryInput({ ...valid, inquirer_phone: '0'.repeat(30) }).ok)
  assert.is(messageOf({ ...valid, inquirer_phone: '0'.repeat(31) }, 'inquirer_phone'), 'must be at most 30 characters')
  for (const phone of ['03.1234.5678', '０３-1234', '03-1234 ext 5', '+81#1']) {
    assert.is(messageOf({ ...valid, inquirer_phone: phone }, 'inquirer_phone'), 'may contain only digits, spaces and + - ( )', phone)
  }
  assert.is(messageOf({ ...valid, inquirer_phone: '+-()' }, 'inquirer_phone'), 'must contain a digit')
  assert.is(messageOf({ ...valid, inquirer_phone: 3_1234_5678 }, 'inquirer_phone'), 'must be a string')
})

shape('priority must be the JSON number 1, 2 or 3', () => {
  for (const priority of [1, 2, 3]) {
    const result = parseInquiryInput({ ...valid, priority })
    assert.ok(result.ok && result.value.priority === priority)
  }
  for (const priority of [0, 4, 1.5, -1, '2', true, [2], { value: 2 }, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.is(messageOf({ ...valid, priority }, 'priority'), 'must be the integer 1 (low), 2 (medium) or 3 (high)', String(priority))
  }
})

shape('control characters are refused; content alone may hold line breaks and tabs', () => {
  for (const control of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f']) {
    assert.is(messageOf({ ...valid, title: `a${control}b` }, 'title'), 'must not contain control characters or line breaks', JSON.stringify(control))
    assert.is(messageOf({ ...valid, content: `a${control}b` }, 'content'), 'must not contain control characters other than line breaks and tabs')
  }
  for (const field of ['title', 'inquirer_name', 'inquirer_company', 'inquirer_department']) {
    assert.is(messageOf({ ...valid, [field]: 'a\nb' }, field), 'must not contain control characters or line breaks', field)
    assert.is(messageOf({ ...valid, [field]: 'a\tb' }, field), 'must not contain control characters or line breaks', field)
  }
  assert.ok(parseInquiryInput({ ...valid, content: 'line 1\r\nline 2\n\tindented' }).ok)
})

shape('single-line fields refuse U+2028/U+2029, bidi controls and other invisible format characters; content keeps them', () => {
  const invisible = 'must not contain invisible formatting characters (bidi controls, zero-width spaces and the like)'
  for (const field of ['title', 'inquirer_name', 'inquirer_company', 'inquirer_department']) {
    for (const separator of ['\u2028', '\u2029']) {
      assert.is(messageOf({ ...valid, [field]: `a${separator}b` }, field), 'must not contain control characters or line breaks', `${field} U+${separator.charCodeAt(0).toString(16)}`)
    }
    const format = ['\u202e', '\u202a', '\u2066', '\u2069', '\u200e', '\u200f', '\u061c', '\u200b', '\u2060', '\ufeff', '\u00ad', '\u180e', '\u{e0041}', '\ufff9']
    for (const character of format) {
      assert.is(messageOf({ ...valid, [field]: `invoice${character}fdp.exe` }, field), invisible, `${field} U+${character.codePointAt(0)?.toString(16)}`)
    }
    // Joiners with nothing visible on one side are as invisible as the rest.
    for (const text of ['\u200dabc', 'abc\u200c', 'a\u200d\u200db', 'a \u200d b', '\u200d']) assert.is(messageOf({ ...valid, [field]: text }, field), invisible, JSON.stringify(text))
  }
  // ZWNJ and ZWJ between two visible characters are part of names and emoji.
  for (const text of ['می\u200cخواهم', 'क्\u200dष', '👩\u200d💻', '👨\u200d👩\u200d👧', 'Ａｃｍｅ株式会社']) {
    assert.ok(parseInquiryInput({ ...valid, title: text, inquirer_name: text, inquirer_company: text, inquirer_department: text }).ok, JSON.stringify(text))
  }
  assert.ok(parseInquiryInput({ ...valid, content: 'שלום\u200f (Hebrew)\u2028next\u202eline\u202c' }).ok, 'content may carry marks and separators')
})

shape('lone surrogates are refused as invalid text', () => {
  const body = JSON.parse('{"category_code":"general","title":"a\\ud800b","content":"\\udfff","inquirer_name":"n","inquirer_email":"a@b.jp"}')
  assert.equal(details(parseInquiryInput(body)), [
    { field: 'title', message: 'must be valid Unicode text' },
    { field: 'content', message: 'must be valid Unicode text' },
  ])
  assert.ok(parseInquiryInput({ ...valid, title: '😀 絵文字 👨‍👩‍👧' }).ok)
})

shape('__proto__, constructor and prototype are unknown fields and never touch a prototype', () => {
  const body = JSON.parse(
    '{"category_code":"general","title":"t","content":"c","inquirer_name":"n","inquirer_email":"a@b.jp",' +
      '"__proto__":{"priority":3,"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":1}',
  )
  assert.equal(fields(body), ['__proto__', 'constructor', 'prototype'])
  assert.is(({} as Record<string, unknown>).polluted, undefined)
  assert.is(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false)
})

shape('inherited properties do not count as fields', () => {
  const body = Object.create({ ...valid })
  assert.equal(fields(body), ['category_code', 'title', 'content', 'inquirer_name', 'inquirer_email'])
})

shape('a category code that is well-formed is handed back even when other fields fail', () => {
  const result = parseInquiryInput({ ...valid, category_code: '  support ', title: '' })
  assert.is(result.ok, false)
  assert.is(!result.ok && result.categoryCode, 'support')
  const bad = parseInquiryInput({ ...valid, category_code: '', title: '' })
  assert.is(!bad.ok && bad.categoryCode, null)
})

shape('huge strings are refused quickly with one detail each', () => {
  const huge = 'あ'.repeat(1_000_000)
  const started = Date.now()
  const found = details(parseInquiryInput({ ...valid, title: huge, content: huge, inquirer_email: `${huge}@example.com` }))
  assert.equal(found.map((d) => d.field), ['title', 'content', 'inquirer_email'])
  assert.ok(Date.now() - started < 2000, 'took too long')
})

shape('any JSON value that is not a valid body is refused with well-formed details (property)', () => {
  const field = fc.constantFrom(...INQUIRY_FIELDS, '__proto__', 'constructor', 'extra', '')
  const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }))
  const body = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(field, value, { maxKeys: 12 }))
  fc.assert(
    fc.property(body, (candidate) => {
      const input = JSON.parse(JSON.stringify(candidate ?? null)) as unknown
      const result = parseInquiryInput(input)
      if (result.ok) {
        // Whatever passes is a normalised body within every limit.
        const value = result.value
        assert.ok([1, 2, 3].includes(value.priority))
        assert.ok(value.title.length > 0 && value.title === value.title.trim())
        return
      }
      assert.ok(result.details.length > 0)
      const names = result.details.map((d) => d.field)
      assert.is(new Set(names).size, names.length, 'one detail per field')
      for (const detail of result.details) {
        assert.type(detail.field, 'string')
        assert.ok(typeof detail.message === 'string' && detail.message.length > 0)
      }
    }),
    { numRuns: 500 },
  )
})

const INVISIBLE = 'must not contain invisible characters (Hangul fillers, braille blanks, noncharacters, stray variation selectors and the like)'
const NOT_VISIBLE = 'must contain a visible character'
const SINGLE_LINE = ['title', 'inquirer_name', 'inquirer_company', 'inquirer_department']

shape('single-line fields refuse fillers, blanks, noncharacters and stray selectors; every field needs a visible character', () => {
  const invisible = ['\u3164', '\uffa0', '\u115f', '\u1160', '\u2800', '\u034f', '\u17b4', '\uffff', '\ufffe', '\ufdd0', '\ufdef', '\u{1fffe}', '\u{10ffff}']
  for (const field of SINGLE_LINE) {
    for (const character of invisible) {
      const name = `${field} U+${character.codePointAt(0)?.toString(16)}`
      assert.is(messageOf({ ...valid, [field]: character }, field), INVISIBLE, name)
      assert.is(messageOf({ ...valid, [field]: `invoice${character}` }, field), INVISIBLE, `${name} at the end`)
      assert.is(messageOf({ ...valid, [field]: `${character}invoice` }, field), INVISIBLE, `${name} at the start`)
    }
    for (const selector of ['\ufe0f', '\u{e0100}', '\u180b']) {
      assert.is(messageOf({ ...valid, [field]: selector }, field), INVISIBLE, `${field}: a lone selector`)
      assert.is(messageOf({ ...valid, [field]: `${selector}invoice` }, field), INVISIBLE, `${field}: a selector after nothing`)
      assert.is(messageOf({ ...valid, [field]: `invoice ${selector}` }, field), INVISIBLE, `${field}: a selector after a space`)
    }
    assert.is(messageOf({ ...valid, [field]: '\u3164\u3164\u3164' }, field), INVISIBLE, `${field} of Hangul fillers only`)
    assert.is(messageOf({ ...valid, [field]: 'a\ufe0f\ufe0f' }, field), INVISIBLE, 'a second selector selects nothing')
    assert.is(messageOf({ ...valid, [field]: '\u0301\u0302' }, field), NOT_VISIBLE, `${field} of combining marks only`)
  }
  assert.is(messageOf({ ...valid, content: '\u200b\u3164\n\u2800' }, 'content'), NOT_VISIBLE, 'content that looks blank')
  assert.is(messageOf({ ...valid, category_code: '\u0300' }, 'category_code'), NOT_VISIBLE)
  // Where they are meant: selectors after a character, jamo syllables, braille, a joiner between marks.
  for (const text of ['❤️ support', '葛\u{e0100}飾区', '👁️‍🗨️', '1️⃣', '᠆ᠠ᠋', '\u115f\u1161', '\u1100\u1160\u11a8', '⠓⠑⠀⠇⠇⠕', 'a\u0301\u034f\u0302', '\ue000 gaiji']) {
    const result = parseInquiryInput({ ...valid, title: text, inquirer_name: text, inquirer_company: text, inquirer_department: text })
    assert.ok(result.ok, `${JSON.stringify(text)}: ${JSON.stringify(result)}`)
  }
  assert.ok(parseInquiryInput({ ...valid, content: 'blank\u3164 braille \u2800 \uffff kept in content' }).ok, 'content is refused only when it looks blank')
})

/**
 * The class of a code point for a single-line field, said from the Unicode categories the
 * README names: what a field made of it alone, and what `a<it>b`, are answered.
 */
function expectedFor(codePoint: number): { alone: string | null; between: string | null } {
  const c = String.fromCodePoint(codePoint)
  const is = (pattern: RegExp) => pattern.test(c)
  if (is(/^\s$/u)) return { alone: 'must not be empty', between: is(/^[\t\n\v\f\r\u2028\u2029\u0085]$/u) ? CONTROL : null }
  if (is(/^\p{Cc}$/u)) return { alone: CONTROL, between: CONTROL }
  if (is(/^\p{Cf}$/u)) return { alone: FORMAT, between: is(/^[\u200c\u200d]$/u) ? null : FORMAT }
  const selector = is(/^[\u180b-\u180d\u180f\ufe00-\ufe0f\u{e0100}-\u{e01ef}]$/u)
  if (is(/^[\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u2800]$/u)) return { alone: INVISIBLE, between: selector ? null : INVISIBLE }
  if (is(/^\p{M}$/u)) return { alone: NOT_VISIBLE, between: null }
  return { alone: null, between: null }
}
const CONTROL = 'must not contain control characters or line breaks'
const FORMAT = 'must not contain invisible formatting characters (bidi controls, zero-width spaces and the like)'

shape('over the whole Unicode range, the class of a code point says whether a single-line field takes it (property)', () => {
  const codePoint = fc.oneof(
    fc.integer({ min: 0, max: 0x10ffff }),
    fc.integer({ min: 0, max: 0x3fff }),
    fc.constantFrom(0x115f, 0x1160, 0x17b4, 0x2800, 0x3164, 0xffa0, 0x034f, 0xfe0f, 0xe0100, 0xfdd0, 0xffff, 0x10fffe, 0xe0001, 0x200d, 0x00a0, 0x3000),
  )
  fc.assert(
    fc.property(
      codePoint.filter((cp) => cp < 0xd800 || cp > 0xdfff),
      fc.constantFrom(...SINGLE_LINE),
      (cp, field) => {
        const expected = expectedFor(cp)
        const c = String.fromCodePoint(cp)
        const alone = parseInquiryInput({ ...valid, [field]: c })
        const between = parseInquiryInput({ ...valid, [field]: `a${c}b` })
        const optionalBlank = expected.alone === 'must not be empty' && field !== 'title' && field !== 'inquirer_name'
        assert.is(alone.ok ? null : messageOf({ ...valid, [field]: c }, field), optionalBlank ? null : expected.alone, `U+${cp.toString(16)} alone`)
        assert.is(between.ok ? null : messageOf({ ...valid, [field]: `a${c}b` }, field), expected.between, `U+${cp.toString(16)} between`)
      },
    ),
    { numRuns: 3000 },
  )
})

shape.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { checkIdempotencyKey, inquiryRequestHash } from './idempotency-key.ts'
import { parseInquiryInput } from './inquiry-input.ts'
import type { InquiryInput } from './inquiry-input.ts'

function input(body: Record<string, unknown>): InquiryInput {
  const result = parseInquiryInput(body)
  if (!result.ok) throw new Error(JSON.stringify(result.details))
  return result.value
}

const base = { category_code: 'general', title: 'Hello', content: 'Text', inquirer_name: 'Taro', inquirer_email: 'taro@example.jp' }

test('keys of 1 to 255 printable ASCII characters are accepted', () => {
  for (const key of ['a', '550e8400-e29b-41d4-a716-446655440000', 'x'.repeat(255), 'with space ~!', '{"json":1}']) {
    assert.is(checkIdempotencyKey(key), null, key)
  }
})

test('empty, too long and non-ASCII keys are refused on field Idempotency-Key', () => {
  assert.equal(checkIdempotencyKey(''), { field: 'Idempotency-Key', message: 'must not be empty' })
  assert.equal(checkIdempotencyKey('x'.repeat(256)), { field: 'Idempotency-Key', message: 'must be at most 255 characters' })
  for (const key of ['キー', 'tab\there', 'nl\n', 'del\u007f', 'é']) {
    assert.equal(checkIdempotencyKey(key), { field: 'Idempotency-Key', message: 'must contain only printable ASCII characters' }, key)
  }
})

test('the request hash ignores key order, trimming, a defaulted priority and null optionals', () => {
  const a = inquiryRequestHash(input(base))
  const reordered = Object.fromEntries(Object.entries(base).reverse())
  assert.is(inquiryRequestHash(input(reordered)), a)
  assert.is(inquiryRequestHash(input({ ...base, title: '  Hello ' })), a)
  assert.is(inquiryRequestHash(input({ ...base, priority: 2 })), a)
  assert.is(inquiryRequestHash(input({ ...base, inquirer_phone: null, inquirer_company: '' })), a)
  assert.match(a, /^[0-9a-f]{64}$/)
})

test('the request hash changes with anything that would be stored', () => {
  const a = inquiryRequestHash(input(base))
  const variants = [
    { ...base, title: 'Hello!' },
    { ...base, priority: 3 },
    { ...base, content: 'Text ' + 'more' },
    { ...base, inquirer_phone: '03' },
    { ...base, inquirer_company: 'ACME' },
    { ...base, inquirer_department: 'ACME' },
    { ...base, category_code: 'sales' },
  ]
  const hashes = new Set(variants.map((variant) => inquiryRequestHash(input(variant))))
  assert.is(hashes.size, variants.length)
  assert.not.ok(hashes.has(a))
})

test('values cannot bleed across fields', () => {
  // Hint: a naive concatenation would make these two the same.
  const one = input({ ...base, inquirer_company: 'AB', inquirer_department: 'C' })
  const two = input({ ...base, inquirer_company: 'A', inquirer_department: 'BC' })
  assert.is.not(inquiryRequestHash(one), inquiryRequestHash(two))
})

test.run()

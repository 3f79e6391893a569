import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { InquiryRecord } from '../model/inquiry.ts'
import { notifyInquiryCreated } from './notify-inquiry-created.ts'

const inquiry: InquiryRecord = {
  tenant_id: 'ten_1',
  id: 'inq_1',
  category_code: 'general',
  title: 'Hello',
  content: 'Text',
  priority: 2,
  inquirer_name: 'Taro',
  inquirer_email: 'taro@example.jp',
  inquirer_phone: null,
  inquirer_company: null,
  inquirer_department: null,
  status: 'open',
  api_key_id: 'key_1',
  created_at: '2026-01-01T00:00:00.000Z',
}

test('the hook receives a copy of the inquiry, later than the caller', async () => {
  let seen: InquiryRecord | null = null
  const done = notifyInquiryCreated({ onInquiryCreated: (record) => void (seen = record) }, inquiry)
  assert.is(seen, null, 'the hook ran on the caller\'s turn')
  await done
  assert.equal(seen, inquiry)
  assert.is.not(seen, inquiry)
})

test('a hook that throws synchronously is reported to onHookError', async () => {
  const errors: [unknown, string][] = []
  const boom = new Error('boom')
  await notifyInquiryCreated({ onInquiryCreated: () => { throw boom }, onHookError: (error, hook) => errors.push([error, hook]) }, inquiry)
  assert.equal(errors, [[boom, 'onInquiryCreated']])
})

test('a hook that rejects is reported to onHookError', async () => {
  const errors: unknown[] = []
  await notifyInquiryCreated({ onInquiryCreated: async () => Promise.reject(new Error('later')), onHookError: (error) => errors.push(error) }, inquiry)
  assert.is(errors.length, 1)
  assert.is((errors[0] as Error).message, 'later')
})

test('an error of onHookError itself, or no reporter at all, is swallowed', async () => {
  await notifyInquiryCreated({ onInquiryCreated: () => { throw new Error('x') }, onHookError: () => { throw new Error('y') } }, inquiry)
  await notifyInquiryCreated({ onInquiryCreated: () => { throw new Error('x') } }, inquiry)
})

test('without a hook nothing is scheduled', async () => {
  await notifyInquiryCreated({}, inquiry)
})

test.run()

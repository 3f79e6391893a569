import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { certificateErrorOf, fetchRuntime, FrontdeskCertificateError } from './frontdesk-certificate-error.ts'

const URL_ = 'https://127.0.0.1:8443/v1/cms/categories'

// The errors each runtime's fetch throws, as they were observed (Bun 1.4, Deno 2.9, workerd 2026-11).
const bunError = Object.assign(new TypeError('self signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })
const denoError = new TypeError('fetch failed', {
  cause: new Error('error sending request for url (https://127.0.0.1:8443/v1/cms/categories): client error (Connect): invalid peer certificate: UnknownIssuer'),
})
const workerdInternal = new Error('internal error; reference = 15r8air4lrbjlj1qr79nmdtr')
const workerdLost = Object.assign(new Error('Network connection lost.'), { retryable: true })

test('each runtime’s certificate error is recognised and its message says how that runtime trusts a certificate', () => {
  const bun = certificateErrorOf(bunError, URL_, 'bun')
  assert.instance(bun, FrontdeskCertificateError)
  assert.is(bun?.code, 'DEPTH_ZERO_SELF_SIGNED_CERT')
  assert.match(bun?.message ?? '', /^The TLS certificate of https:\/\/127\.0\.0\.1:8443 was not accepted \(DEPTH_ZERO_SELF_SIGNED_CERT: self signed certificate\)\. .*in Bun set NODE_EXTRA_CA_CERTS/)
  const deno = certificateErrorOf(denoError, URL_, 'deno')
  assert.is(deno?.code, null)
  assert.is(deno?.runtime, 'deno')
  assert.match(deno?.message ?? '', /invalid peer certificate: UnknownIssuer\)\. .*in Deno run with --cert \/path\/to\/ca\.pem \(or DENO_CERT=/)
  assert.is(deno?.cause, denoError)
  const node = certificateErrorOf(new TypeError('fetch failed', { cause: bunError }), URL_, 'node')
  assert.match(node?.message ?? '', /in Node set NODE_EXTRA_CA_CERTS/)
})

test('on workerd, an https fetch failing with "internal error" is reported as the likely certificate problem, with its reference', () => {
  const error = certificateErrorOf(workerdInternal, URL_, 'workerd')
  assert.instance(error, FrontdeskCertificateError)
  assert.is(error?.code, null)
  assert.match(error?.message ?? '', /^The TLS connection to https:\/\/127\.0\.0\.1:8443 could not be opened, most likely because its TLS certificate was not accepted \(workerd: internal error; reference = 15r8air4lrbjlj1qr79nmdtr\)\. workerd reports no more/)
  assert.match(error?.message ?? '', /trustedCertificates = \[embed "ca\.pem"\]/)
  // Not for plain http (no TLS), not for what workerd names itself, not on other runtimes.
  assert.is(certificateErrorOf(workerdInternal, 'http://127.0.0.1:8080/v1/cms/categories', 'workerd'), null)
  assert.is(certificateErrorOf(workerdLost, URL_, 'workerd'), null)
  assert.is(certificateErrorOf(workerdInternal, URL_, 'node'), null)
})

test('other network errors are not certificate errors on any runtime', () => {
  const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) })
  for (const runtime of ['node', 'bun', 'deno', 'workerd'] as const) assert.is(certificateErrorOf(refused, URL_, runtime), null, runtime)
})

test('this runtime is told apart from the others by its globals', () => {
  assert.is(fetchRuntime(), 'node')
})

test.run()

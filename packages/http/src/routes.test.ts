import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { matchRoute } from './routes.ts'

test('each endpoint of SPEC.md is found with its operation', () => {
  const cases: [string, string, string][] = [
    ['GET', '/v1/cms/contents', 'listContents'],
    ['GET', '/v1/cms/contents/cnt_1', 'getContent'],
    ['GET', '/v1/cms/contents/slug/hello', 'getContentBySlug'],
    ['GET', '/v1/cms/categories', 'listCategories'],
    ['GET', '/v1/cms/categories/cat_1', 'getCategory'],
    ['POST', '/v1/cms/search', 'search'],
    ['POST', '/v1/inquiries', 'createInquiry'],
    ['GET', '/v1/inquiries/categories', 'listInquiryCategories'],
  ]
  for (const [method, path, operation] of cases) {
    const match = matchRoute(method, path)
    assert.is(match.kind === 'found' && match.route.operation, operation, `${method} ${path}`)
  }
})

test('path parameters are returned raw, still percent-encoded', () => {
  const match = matchRoute('GET', '/v1/cms/contents/slug/%E7%A7%BB%E8%BB%A2')
  assert.equal(match.kind === 'found' && match.params, { slug: '%E7%A7%BB%E8%BB%A2' })
})

test('a content whose id is "slug" is still reachable by id', () => {
  const match = matchRoute('GET', '/v1/cms/contents/slug')
  assert.equal(match.kind === 'found' && [match.route.operation, match.params], ['getContent', { id: 'slug' }])
})

test('HEAD is served by GET routes', () => {
  const match = matchRoute('HEAD', '/v1/cms/categories')
  assert.is(match.kind === 'found' && match.route.operation, 'listCategories')
})

test('a wrong method on a known path lists the allowed ones', () => {
  assert.equal(matchRoute('DELETE', '/v1/cms/contents/x'), { kind: 'method_not_allowed', allow: ['GET', 'HEAD'] })
  assert.equal(matchRoute('GET', '/v1/cms/search'), { kind: 'method_not_allowed', allow: ['POST'] })
  assert.equal(matchRoute('PUT', '/v1/inquiries'), { kind: 'method_not_allowed', allow: ['POST'] })
})

test('unknown paths, trailing slashes and empty segments are not found', () => {
  for (const path of ['/', '/v1', '/v1/', '/v2/cms/contents', '/v1/cms/contents/', '/v1/cms//contents', '/v1/cms/contents/slug/', '//v1/cms/contents', 'v1/cms/contents', '*', '/v1/cms/contents/a/b']) {
    assert.equal(matchRoute('GET', path), { kind: 'not_found' }, path)
  }
})

test.run()

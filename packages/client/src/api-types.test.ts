import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type * as core from '@frontdesk/core'
import { openApiDocument, openApiTypes } from '@frontdesk/http'
import type { Category, CategoryDetail, ContentDetail, ContentList, InquiryCategory, InquiryCreated, SearchResponse } from './api-types.ts'

test('api-types.ts is what the OpenAPI document’s response schemas generate (else run `npm run generate:client`)', () => {
  const checkedIn = readFileSync(new URL('./api-types.ts', import.meta.url), 'utf8')
  assert.ok(checkedIn === openApiTypes(openApiDocument()), 'packages/client/src/api-types.ts is out of date: run `npm run generate:client`')
})

// Core's view types are inferred from the same valibot schemas the document is made from:
// these assignments, both ways, make `tsc` (part of `npm test`) fail as soon as the two
// readings of a shape differ.
type Same<Server, Client> = [Server] extends [Client] ? ([Client] extends [Server] ? true : false) : false
const checks: true[] = [
  true satisfies Same<core.ContentListBody, ContentList>,
  true satisfies Same<core.ContentDetail, ContentDetail>,
  true satisfies Same<core.CategoryView, Category>,
  true satisfies Same<core.CategoryDetail, CategoryDetail>,
  true satisfies Same<core.SearchResponseBody, SearchResponse>,
  true satisfies Same<core.InquiryCreated, InquiryCreated>,
  true satisfies Same<core.InquiryCategoryItem, InquiryCategory>,
]

test('the server’s response types and the client’s are the same shapes (checked by tsc)', () => {
  assert.is(checks.length, 7)
})

test.run()

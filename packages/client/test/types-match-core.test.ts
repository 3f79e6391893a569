import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Category, CategoryDetail, ContentDetail, ContentList, InquiryCategory, InquiryCreated, SearchResponse } from '@frontdesk/client'
import type * as core from '@frontdesk/core'

// The client declares its own types (it must not depend on the server's packages); these
// assignments make `tsc` (part of `npm test`) fail as soon as a body the server builds would
// not fit the type the client promises.
type Fits<Server, Client> = Server extends Client ? true : false
const checks: true[] = [
  true satisfies Fits<core.ContentListBody, ContentList>,
  true satisfies Fits<core.ContentDetail, ContentDetail>,
  true satisfies Fits<core.CategoryView, Category>,
  true satisfies Fits<core.CategoryDetail, CategoryDetail>,
  true satisfies Fits<core.SearchResponseBody, SearchResponse>,
  true satisfies Fits<core.InquiryCreated, InquiryCreated>,
  true satisfies Fits<core.InquiryCategoryItem, InquiryCategory>,
]

test('the server’s response types fit the client’s (checked by tsc)', () => {
  assert.is(checks.length, 7)
})

test.run()

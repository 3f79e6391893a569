import { strongEtag } from '@frontdesk/core'
import type { HttpResponse } from '../http-types.ts'
import { ifNoneMatchMatches } from '../if-none-match.ts'
import { openApiDocument } from './openapi-document.ts'

let served: { bytes: Buffer; etag: string } | null = null

/**
 * The reply to `GET /v1/openapi.json`: the document (built once per process), cacheable by
 * anyone for 5 minutes with an `ETag` (it holds no tenant data), 304 on a matching
 * `If-None-Match`. `headers` are the request's common response headers.
 */
export function openApiResponse(headers: Record<string, string>, ifNoneMatch: string | undefined): HttpResponse {
  if (served === null) {
    const json = JSON.stringify(openApiDocument())
    served = { bytes: Buffer.from(json), etag: strongEtag('', json) }
  }
  const { bytes, etag } = served
  const out = { ...headers, 'cache-control': 'public, max-age=300', etag }
  if (ifNoneMatchMatches(ifNoneMatch, etag)) return { status: 304, headers: out, body: Buffer.alloc(0) }
  return { status: 200, headers: out, body: bytes }
}

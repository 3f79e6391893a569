import type { Operation } from '@frontdesk/core'

/** An endpoint of `/v1`: its method, its path as segments (`:name` is a parameter) and its operation. */
export interface Route {
  method: 'GET' | 'POST'
  segments: readonly string[]
  operation: Operation
  /** The path as OpenAPI writes it (`/v1/cms/contents/{id}`): the route's name in metrics. */
  template: string
}

/** The endpoints of `/v1` (README "API reference"). More specific paths come first (`slug/{slug}` before `{id}`). */
export const ROUTES: readonly Route[] = [
  { method: 'GET', segments: ['v1', 'cms', 'contents'], operation: 'listContents', template: '/v1/cms/contents' },
  { method: 'GET', segments: ['v1', 'cms', 'contents', 'slug', ':slug'], operation: 'getContentBySlug', template: '/v1/cms/contents/slug/{slug}' },
  { method: 'GET', segments: ['v1', 'cms', 'contents', ':id'], operation: 'getContent', template: '/v1/cms/contents/{id}' },
  { method: 'GET', segments: ['v1', 'cms', 'categories'], operation: 'listCategories', template: '/v1/cms/categories' },
  { method: 'GET', segments: ['v1', 'cms', 'categories', ':id'], operation: 'getCategory', template: '/v1/cms/categories/{id}' },
  { method: 'POST', segments: ['v1', 'cms', 'search'], operation: 'search', template: '/v1/cms/search' },
  { method: 'POST', segments: ['v1', 'inquiries'], operation: 'createInquiry', template: '/v1/inquiries' },
  { method: 'GET', segments: ['v1', 'inquiries', 'categories'], operation: 'listInquiryCategories', template: '/v1/inquiries/categories' },
]

/** What the router found for a method and path. */
export type RouteMatch =
  /** `params` hold the raw (still percent-encoded) path segments; decode them after authentication. */
  | { kind: 'found'; route: Route; params: Record<string, string> }
  /** The path exists with other methods, listed in `allow` (for the `Allow` header). */
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' }

/**
 * Finds the route of a request. `HEAD` is served by `GET` routes. Paths match exactly:
 * no trailing slash, no empty segment, no decoding of the fixed segments.
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const segments = pathname.split('/')
  if (segments.shift() !== '') return { kind: 'not_found' }
  const allow = new Set<string>()
  for (const route of ROUTES) {
    const params = matchSegments(route.segments, segments)
    if (params === null) continue
    if (route.method === method || (route.method === 'GET' && method === 'HEAD')) return { kind: 'found', route, params }
    allow.add(route.method)
    if (route.method === 'GET') allow.add('HEAD')
  }
  return allow.size === 0 ? { kind: 'not_found' } : { kind: 'method_not_allowed', allow: [...allow] }
}

function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null
  const params: Record<string, string> = {}
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i]
    if (segment === undefined || segment === '') return null
    if (part.startsWith(':')) params[part.slice(1)] = segment
    else if (part !== segment) return null
  }
  return params
}

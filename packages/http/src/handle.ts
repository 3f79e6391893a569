import type { Credentials, Frontdesk, Principal, Reply } from '@frontdesk/core'
import { FrontdeskError, OPERATIONS, RateLimitedError, RequestRefusedError } from '@frontdesk/core'
import { redactTarget } from './access-log.ts'
import { answerHeaders, errorAnswer, replyAnswer, uncachedAnswer } from './answer.ts'
import type { HttpRequest, HttpResponse } from './http-types.ts'
import { assertJsonMediaType, assertNoContentCoding, parseJsonBody } from './json-body.ts'
import { requestIdOf } from './request-id.ts'
import type { FrontdeskMetrics } from './metrics.ts'
import type { Route } from './routes.ts'
import { matchRoute } from './routes.ts'
import { HEALTH_PATH, OPENAPI_PATH } from './openapi/openapi-document.ts'
import { openApiResponse } from './openapi/openapi-response.ts'
import type { UnavailableReporter } from './unavailable-report.ts'
import { createUnavailableLog, isUnavailable } from './unavailable-report.ts'

/** Options of `handle` (and of `createHandler`, `createServer`). */
export interface HandleOptions {
  /** Largest accepted JSON request body, in bytes. Default 65 536 (README "Transport"). */
  bodyLimit?: number
  /**
   * Receives every unexpected error (the client sees a bare 500 with the request id), with the
   * request target redacted as in the access log (`redactTarget`).
   * Default: one line on stderr with the request id and the stack.
   */
  onError?: (error: unknown, request: { requestId: string; method: string; url: string }) => void
  /**
   * Receives every request refused with 503 because storage failed (a lock held too long, a
   * full disk, an I/O error); `error.cause` is the driver's error. Default: one line on stderr
   * naming the cause, at most one per 10 s (with a count of the others).
   */
  onUnavailable?: UnavailableReporter
  /**
   * Prometheus metrics to count requests, refusals and storage errors in (`createMetrics`; see
   * README "Metrics"). Default: none.
   */
  metrics?: FrontdeskMetrics
}

const defaultUnavailableLog = createUnavailableLog()

/** The default body limit (64 KiB). */
export const DEFAULT_BODY_LIMIT = 64 * 1024

/**
 * Serves one `/v1` request, independent of `node:http`, and `GET /healthz` (no key, over any
 * connection: see `frontdesk.health()`). Checks run in the README\'s "Errors" order: HTTPS, route
 * (404/405), credential (401/403), permission (403), input (415/413/400), and the use case's
 * own checks (400, then 404). Never throws: every failure is a JSON error. Every answer is
 * built by `answer.ts`.
 */
export async function handle(frontdesk: Frontdesk, request: HttpRequest, options: HandleOptions = {}): Promise<HttpResponse> {
  const requestId = requestIdOf(request.headers['x-request-id'])
  const headers = answerHeaders(requestId, request.secure)
  let caller: HttpResponse['caller']
  let route: string | undefined
  try {
    const [pathname = '', search = ''] = splitTarget(request.url)
    if (pathname === HEALTH_PATH) {
      route = HEALTH_PATH
      const answer = await health(frontdesk, request.method, headers)
      answer.route = route
      return answer
    }
    if (!request.secure) throw new RequestRefusedError('HTTPS_REQUIRED', httpsRequiredMessage(request))
    if (pathname === OPENAPI_PATH) {
      route = OPENAPI_PATH
      if (request.method === 'GET' || request.method === 'HEAD') return { ...openApiResponse(headers, headerValue(request.headers['if-none-match'])), route }
      headers.allow = 'GET, HEAD'
      throw new RequestRefusedError('METHOD_NOT_ALLOWED', 'Method not allowed')
    }
    const match = matchRoute(request.method, pathname)
    if (match.kind === 'not_found') throw new RequestRefusedError('NOT_FOUND', 'Route not found')
    if (match.kind === 'method_not_allowed') {
      headers.allow = match.allow.join(', ')
      throw new RequestRefusedError('METHOD_NOT_ALLOWED', 'Method not allowed')
    }
    const credentials: Credentials = {
      apiKey: headerValue(request.headers['x-api-key']) ?? null,
      authorization: request.headers.authorization !== undefined,
    }
    if (credentials.apiKey === null && search !== '' && hasKeyParameter(search)) credentials.keyElsewhere = true
    if (request.remoteAddress) credentials.clientAddress = request.remoteAddress
    route = match.route.template
    const principal = await frontdesk.authenticate(credentials, OPERATIONS[match.route.operation])
    caller = { tenant: principal.tenant.code, keyId: principal.key.id }
    if (principal.rateLimit !== undefined) setRateLimitHeaders(headers, principal.rateLimit)
    const reply = await run(frontdesk, principal, match.route, match.params, search, request, options)
    const answer = replyAnswer(reply, headers, request.headers['if-none-match'])
    answer.caller = caller
    answer.route = route
    return answer
  } catch (error) {
    // Hint: a key recognised and then refused (disabled, throttled, not allowed) is still named in the access log.
    if (caller === undefined && error instanceof FrontdeskError && error.caller !== undefined) caller = error.caller
    if (error instanceof RateLimitedError && error.limit !== undefined) setRateLimitHeaders(headers, error.limit)
    const { unexpected, ...response } = errorAnswer(error, headers)
    // Hint: the target goes to operators' logs, so a key a client put in it is redacted first.
    if (unexpected) report(options, error, { requestId, method: request.method, url: redactTarget(request.url) })
    else if (isUnavailable(error)) reportUnavailable(options, error, { requestId, method: request.method, url: redactTarget(request.url) })
    const code = error instanceof FrontdeskError && error.code !== 'INTERNAL_ERROR' ? error.code : 'INTERNAL_ERROR'
    return { ...response, code, ...(caller === undefined ? {} : { caller }), ...(route === undefined ? {} : { route }) }
  }
}

/** Query parameter names under which clients put API keys. */
const KEY_PARAMETERS: ReadonlySet<string> = new Set(['api_key', 'apikey', 'api-key', 'x-api-key', 'x_api_key', 'key', 'token', 'access_token'])

/** Whether a query string carries an API key: under a name for one, or a value shaped like one. */
function hasKeyParameter(search: string): boolean {
  for (const [name, value] of new URLSearchParams(search)) {
    if (KEY_PARAMETERS.has(name.toLowerCase()) || /fd[kp]_[0-9a-z]{8,}/i.test(value)) return true
  }
  return false
}

/**
 * Why a plain request is refused. A trusted proxy that did not say `X-Forwarded-Proto: https`
 * may be forwarding a client's clear-text request, or the caller bypassed the proxy (a process
 * on the proxy's host): either way the key crossed a network in clear, or could have, so it
 * is refused, and the message says what would be served.
 */
function httpsRequiredMessage(request: HttpRequest): string {
  if (request.fromTrustedProxy !== true) return 'HTTPS is required: call the service\'s https:// address'
  return (
    'HTTPS is required: this server serves plain HTTP only when its trusted proxy says the client used HTTPS (X-Forwarded-Proto: https); ' +
    'call the proxy\'s https:// address, not this port'
  )
}

/**
 * `GET /healthz`: 200 `{"status":"ok"}` when `frontdesk.health()` finds the store and the
 * search engine answering, else 503 `{"status":"unavailable"}`; 405 to other methods.
 */
async function health(frontdesk: Frontdesk, method: string, headers: Record<string, string>): Promise<HttpResponse> {
  if (method !== 'GET' && method !== 'HEAD') {
    headers.allow = 'GET, HEAD'
    throw new RequestRefusedError('METHOD_NOT_ALLOWED', 'Method not allowed')
  }
  const { status } = await frontdesk.health()
  return uncachedAnswer(status === 'ok' ? 200 : 503, { status }, headers)
}

async function run(
  frontdesk: Frontdesk,
  principal: Principal,
  route: Route,
  params: Record<string, string>,
  search: string,
  request: HttpRequest,
  options: HandleOptions,
): Promise<Reply<unknown>> {
  switch (route.operation) {
    case 'listContents': {
      const query = new URLSearchParams(search)
      const previewToken = previewTokenOf(request, query)
      query.delete('preview_token')
      return frontdesk.listContents(principal, query, previewToken)
    }
    case 'getContent':
      return frontdesk.getContent(principal, decodeParam(params.id), previewTokenOf(request, queryOf(search)))
    case 'getContentBySlug':
      return frontdesk.getContentBySlug(principal, decodeParam(params.slug), previewTokenOf(request, queryOf(search)))
    case 'listCategories':
      return frontdesk.listCategories(principal)
    case 'getCategory':
      return frontdesk.getCategory(principal, decodeParam(params.id))
    case 'search':
      return frontdesk.search(principal, await readJson(request, options))
    case 'createInquiry': {
      const body = await readJson(request, options)
      return frontdesk.createInquiry(principal, body, headerValue(request.headers['idempotency-key']) ?? null)
    }
    case 'listInquiryCategories':
      return frontdesk.listInquiryCategories(principal)
  }
}

/**
 * The `RateLimit-*` headers of a key's bucket (README "Security", as draft-ietf-httpapi-ratelimit-headers-06
 * defines them; see `RateLimitState`); none for an unlimited key.
 */
function setRateLimitHeaders(headers: Record<string, string>, state: { limit: number; remaining: number; reset: number; window?: number }): void {
  if (state.limit <= 0) return
  headers['ratelimit-limit'] = String(state.limit)
  headers['ratelimit-remaining'] = String(state.remaining)
  headers['ratelimit-reset'] = String(state.reset)
  if (state.window !== undefined) headers['ratelimit-policy'] = `${state.limit};w=${state.window}`
}

async function readJson(request: HttpRequest, options: HandleOptions): Promise<unknown> {
  assertJsonMediaType(headerValue(request.headers['content-type']))
  assertNoContentCoding(headerValue(request.headers['content-encoding']))
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  const declared = headerValue(request.headers['content-length'])
  if (declared !== undefined && Number(declared) > limit) throw payloadTooLarge(limit)
  const body = typeof request.body === 'function' ? await request.body(limit) : (request.body ?? Buffer.alloc(0))
  if (body.length > limit) throw payloadTooLarge(limit)
  return parseJsonBody(body)
}

/** The 413 error for a body over `limit` bytes. */
export function payloadTooLarge(limit: number): FrontdeskError {
  return new RequestRefusedError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`)
}

function previewTokenOf(request: HttpRequest, query: URLSearchParams | null): string | null {
  const token = headerValue(request.headers['x-preview-token']) ?? query?.get('preview_token') ?? ''
  return token === '' ? null : token
}

/** The query of a target's `search` part; `null` for none (most detail requests: no object to make). */
function queryOf(search: string): URLSearchParams | null {
  return search === '' ? null : new URLSearchParams(search)
}

/** A path parameter, percent-decoded; one that cannot be decoded names nothing (404). */
function decodeParam(raw: string | undefined): string {
  try {
    // Hint: ids and slugs seldom hold a `%`; without one, decoding returns the same text.
    if (raw !== undefined) return raw.includes('%') ? decodeURIComponent(raw) : raw
  } catch {
    // Malformed percent-encoding: fall through to 404.
  }
  throw new RequestRefusedError('NOT_FOUND', 'Not found')
}

function splitTarget(url: string): [string, string] {
  const at = url.indexOf('?')
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)]
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

function reportUnavailable(options: HandleOptions, error: Parameters<UnavailableReporter>[0], request: Parameters<UnavailableReporter>[1]): void {
  options.metrics?.observeStorageError()
  const reporter = options.onUnavailable ?? defaultUnavailableLog
  try {
    reporter(error, request)
  } catch {
    // A failing logger must not turn into a second failure of the request.
  }
}

function report(options: HandleOptions, error: unknown, request: { requestId: string; method: string; url: string }): void {
  if (options.onError !== undefined) {
    try {
      options.onError(error, request)
    } catch {
      // A failing logger must not turn into a second failure of the request.
    }
    return
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  process.stderr.write(`frontdesk: ${request.method} ${request.url.split('?')[0]} failed (request ${request.requestId}): ${detail}\n`)
}

import type { CategoryDetail, Category, ContentDetail, ContentList, ContentListItem, InquiryCategory, InquiryCreated, SearchResponse } from './api-types.ts'
import { apiErrorOf, FrontdeskApiError } from './frontdesk-api-error.ts'
import { certificateErrorOf } from './frontdesk-certificate-error.ts'
import type { InquiryInput, ListContentsParams, SearchRequest } from './request-types.ts'
import type { RetryOptions, RetryPolicy } from './retry-policy.ts'
import { RETRYABLE_STATUSES, retryDelayMs, retryPolicyOf, sleep } from './retry-policy.ts'

/** A `fetch` implementation: the global one by default, or any function of the same shape. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

/** Options of `FrontdeskClient`. */
export interface FrontdeskClientOptions {
  /** Where the API is served, without `/v1`: e.g. `https://cms.example.com`. Must be `https://` unless `allowHttp`. */
  baseUrl: string
  /**
   * Accept an `http://` `baseUrl`: the address of a proxy on your side that carries the
   * request on over TLS (a service-mesh sidecar, an egress proxy); the key travels
   * unencrypted up to it. frontdesk itself answers plain HTTP only from its trusted proxy
   * saying `X-Forwarded-Proto: https`, so a `serve --behind-proxy` port called directly, even
   * from the same host, answers 403 `HTTPS_REQUIRED`: call its proxy's `https://` address.
   * Default false.
   */
  allowHttp?: boolean
  /** A tenant API key (`fdk_…`). Keep it on the server: never ship it to browsers. */
  apiKey: string
  /**
   * The `fetch` to use. Default: the global `fetch` (Node ≥ 20, Deno, Bun, workers). Pass your
   * own to add a proxy, logging, or trust for a private CA; see README.
   */
  fetch?: FetchLike
  /** A preview token sent (as `X-Preview-Token`) with every content list and detail request. Default: none. */
  previewToken?: string
  /** Retries of failed attempts; see `RetryOptions`. */
  retry?: RetryOptions
  /** Time allowed for one attempt, in ms. Default 30 000. */
  timeoutMs?: number
  /** Extra headers for every request (e.g. `User-Agent`). */
  headers?: Record<string, string>
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call, including waits between retries. */
  signal?: AbortSignal
  /** Sent as `X-Request-Id` (8–64 of `A-Z a-z 0-9 . _ : -`, not shaped like a key): the server logs it and echoes it back; otherwise it makes its own. */
  requestId?: string
}

/** Options of content list and detail calls. */
export interface ContentCallOptions extends CallOptions {
  /** A preview token for this call (overrides the client's). */
  previewToken?: string
}

/** Options of `inquiries.create`. */
export interface CreateInquiryOptions extends CallOptions {
  /**
   * The `Idempotency-Key` (≤ 255 characters). Default: a new random UUID per call, reused by
   * every retry of that call, so a retried request never creates a second inquiry. Pass your
   * own (e.g. derived from a form submission id) to be safe across process restarts too.
   */
  idempotencyKey?: string
}

interface RequestSpec {
  method: 'GET' | 'POST'
  path: string
  query?: URLSearchParams
  body?: unknown
  headers?: Record<string, string>
  /** Whether the server may receive the request more than once (GET, search, keyed inquiry). */
  retryable: boolean
  /** Statuses worth retrying besides `RETRYABLE_STATUSES` (e.g. 409 IDEMPOTENCY_IN_PROGRESS). */
  retryCodes?: readonly string[]
  options: CallOptions | undefined
}

/**
 * A small typed client of the frontdesk `/v1` API, for the calling *server*. Every endpoint;
 * responses typed as the OpenAPI document describes them (not checked at run time); error
 * responses thrown as `FrontdeskApiError`. Safe calls (every GET, search, and inquiry
 * creation, which always carries an `Idempotency-Key`) are retried on network errors, 429
 * (after `Retry-After`), 502, 503 and 504, with bounded attempts and backoff.
 */
export class FrontdeskClient {
  readonly #baseUrl: string
  readonly #apiKey: string
  readonly #fetch: FetchLike
  readonly #previewToken: string | undefined
  readonly #retry: RetryPolicy
  readonly #timeoutMs: number
  readonly #headers: Record<string, string>

  constructor(options: FrontdeskClientOptions) {
    if (!/^https?:\/\/[^/]/i.test(options.baseUrl) || !URL.canParse(options.baseUrl)) {
      throw new TypeError(`baseUrl must be an https URL, e.g. https://cms.example.com (got ${JSON.stringify(options.baseUrl)})`)
    }
    if (/^http:/i.test(options.baseUrl) && options.allowHttp !== true) {
      throw new TypeError(
        `baseUrl ${options.baseUrl} is plain http: the API key would travel unencrypted. Use https://, ` +
          'or pass allowHttp: true for a proxy of yours that carries the request on over TLS (a service-mesh sidecar)',
      )
    }
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.#apiKey = options.apiKey
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.#previewToken = options.previewToken
    this.#retry = retryPolicyOf(options.retry)
    this.#timeoutMs = options.timeoutMs ?? 30_000
    this.#headers = { ...options.headers }
  }

  /** The content area: lists, details, every page. */
  readonly contents = {
    /** `GET /v1/cms/contents`: one page. */
    list: (params: ListContentsParams = {}, options?: ContentCallOptions): Promise<ContentList> =>
      this.#send<ContentList>({ method: 'GET', path: '/v1/cms/contents', query: listQuery(params), headers: this.#preview(options), retryable: true, options }),
    /**
     * Every item of the list, page after page by cursor (`limit` sets the page size). Each page
     * is fetched only when the previous one is used up; stop iterating to stop fetching.
     */
    all: (params: Omit<ListContentsParams, 'cursor'> = {}, options?: ContentCallOptions): AsyncIterable<ContentListItem> => this.#all(params, options),
    /** Every page of the list, by cursor. */
    pages: (params: ListContentsParams = {}, options?: ContentCallOptions): AsyncIterable<ContentList> => this.#pages(params, options),
    /** `GET /v1/cms/contents/{id}`. */
    get: (id: string, options?: ContentCallOptions): Promise<ContentDetail> =>
      this.#send<ContentDetail>({ method: 'GET', path: `/v1/cms/contents/${segment(id)}`, headers: this.#preview(options), retryable: true, options }),
    /** `GET /v1/cms/contents/slug/{slug}`. */
    getBySlug: (slug: string, options?: ContentCallOptions): Promise<ContentDetail> =>
      this.#send<ContentDetail>({ method: 'GET', path: `/v1/cms/contents/slug/${segment(slug)}`, headers: this.#preview(options), retryable: true, options }),
  }

  /** Content categories. */
  readonly categories = {
    /** `GET /v1/cms/categories`: the active categories. */
    list: async (options?: CallOptions): Promise<Category[]> =>
      (await this.#send<{ items: Category[] }>({ method: 'GET', path: '/v1/cms/categories', retryable: true, options })).items,
    /** `GET /v1/cms/categories/{id}`, with custom-field definitions. */
    get: (id: string, options?: CallOptions): Promise<CategoryDetail> =>
      this.#send<CategoryDetail>({ method: 'GET', path: `/v1/cms/categories/${segment(id)}`, retryable: true, options }),
  }

  /** Inquiries. */
  readonly inquiries = {
    /**
     * `POST /v1/inquiries`. Always sends an `Idempotency-Key` (see `CreateInquiryOptions`) and
     * retries with the same key, also on 409 `IDEMPOTENCY_IN_PROGRESS`.
     */
    create: (input: InquiryInput, options?: CreateInquiryOptions): Promise<InquiryCreated> =>
      this.#send<InquiryCreated>({
        method: 'POST',
        path: '/v1/inquiries',
        body: input,
        headers: { 'idempotency-key': options?.idempotencyKey ?? crypto.randomUUID() },
        retryable: true,
        retryCodes: ['IDEMPOTENCY_IN_PROGRESS'],
        options,
      }),
    /** `GET /v1/inquiries/categories`: the active inquiry categories, for a form's selector. */
    categories: async (options?: CallOptions): Promise<InquiryCategory[]> =>
      (await this.#send<{ categories: InquiryCategory[] }>({ method: 'GET', path: '/v1/inquiries/categories', retryable: true, options })).categories,
  }

  /** `POST /v1/cms/search` (never cached server-side; safe to retry). */
  search(request: SearchRequest, options?: CallOptions): Promise<SearchResponse> {
    return this.#send<SearchResponse>({ method: 'POST', path: '/v1/cms/search', body: request, retryable: true, options })
  }

  /** `GET /v1/openapi.json`: the API's OpenAPI 3.1 document. */
  openApi(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.#send<Record<string, unknown>>({ method: 'GET', path: '/v1/openapi.json', retryable: true, options })
  }

  async *#pages(params: ListContentsParams, options: ContentCallOptions | undefined): AsyncGenerator<ContentList> {
    let cursor = params.cursor
    const seen = new Set<string>()
    for (;;) {
      const page = await this.contents.list({ ...params, ...(cursor === undefined ? {} : { cursor }) }, options)
      yield page
      const next = page.pagination.next_cursor
      if (!page.pagination.has_more || next === null) return
      // Hint: a server returning a cursor twice would otherwise make this loop forever.
      if (seen.has(next)) throw new FrontdeskApiError({ status: 200, code: 'INVALID_RESPONSE', message: 'The server returned the same cursor twice' })
      seen.add(next)
      cursor = next
    }
  }

  async *#all(params: ListContentsParams, options: ContentCallOptions | undefined): AsyncGenerator<ContentListItem> {
    for await (const page of this.#pages(params, options)) yield* page.items
  }

  #preview(options: ContentCallOptions | undefined): Record<string, string> {
    const token = options?.previewToken ?? this.#previewToken
    return token === undefined ? {} : { 'x-preview-token': token }
  }

  async #send<T>(spec: RequestSpec): Promise<T> {
    const query = spec.query?.toString() ?? ''
    const url = `${this.#baseUrl}${spec.path}${query === '' ? '' : `?${query}`}`
    const headers: Record<string, string> = { accept: 'application/json', ...this.#headers, 'x-api-key': this.#apiKey, ...spec.headers }
    if (spec.options?.requestId !== undefined) headers['x-request-id'] = spec.options.requestId
    if (spec.body !== undefined) headers['content-type'] = 'application/json'
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body)
    const signal = spec.options?.signal
    for (let attempt = 0; ; attempt++) {
      const canRetry = spec.retryable && attempt < this.#retry.retries
      let response: Response
      let text: string
      try {
        const attemptSignal = signal === undefined ? AbortSignal.timeout(this.#timeoutMs) : AbortSignal.any([signal, AbortSignal.timeout(this.#timeoutMs)])
        response = await this.#fetch(url, { method: spec.method, headers, ...(body === undefined ? {} : { body }), signal: attemptSignal })
        text = await response.text()
      } catch (error) {
        // The caller's own abort is final; a certificate does not change between attempts; a
        // network error or a timed-out attempt may be retried.
        if (signal?.aborted === true) throw error
        const certificate = certificateErrorOf(error, url)
        if (certificate !== null) throw certificate
        if (!canRetry) throw error
        const wait = retryDelayMs(this.#retry, attempt, null)
        if (wait === null) throw error
        await sleep(wait, signal)
        continue
      }
      if (response.ok) return parseBody<T>(response, text)
      const error = apiErrorOf(response.status, response.headers, text)
      const worthRetrying = RETRYABLE_STATUSES.has(response.status) || (spec.retryCodes ?? []).includes(error.code)
      if (!canRetry || !worthRetrying) throw error
      const wait = retryDelayMs(this.#retry, attempt, error.retryAfter)
      if (wait === null) throw error
      await sleep(wait, signal)
    }
  }
}

function parseBody<T>(response: Response, text: string): T {
  try {
    return JSON.parse(text) as T
  } catch (cause) {
    throw new FrontdeskApiError({
      status: response.status,
      code: 'INVALID_RESPONSE',
      message: `Expected a JSON body (status ${response.status})`,
      requestId: response.headers.get('x-request-id'),
      cause,
    })
  }
}

/** A path segment, percent-encoded; an empty one would address another endpoint, so it is refused. */
function segment(value: string): string {
  if (value === '') throw new TypeError('an id or slug must not be empty')
  return encodeURIComponent(value)
}

/** The query string of a list request: arrays comma-separated, `field_filters` as `id:value` pairs. */
export function listQuery(params: ListContentsParams): URLSearchParams {
  const query = new URLSearchParams()
  if (params.category_code !== undefined) query.set('category_code', params.category_code)
  if (params.category_id !== undefined) query.set('category_id', params.category_id)
  if (params.tags !== undefined && params.tags.length > 0) query.set('tags', params.tags.join(','))
  if (params.tag_ids !== undefined && params.tag_ids.length > 0) query.set('tag_ids', params.tag_ids.join(','))
  if (params.field_filters !== undefined) {
    const pairs = Object.entries(params.field_filters).map(([id, value]) => `${id}:${String(value)}`)
    if (pairs.length > 0) query.set('field_filters', pairs.join(','))
  }
  if (params.sort !== undefined) query.set('sort', params.sort)
  if (params.limit !== undefined) query.set('limit', String(params.limit))
  if (params.cursor !== undefined) query.set('cursor', params.cursor)
  return query
}

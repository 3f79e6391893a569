import { LIST_LIMITS } from '@frontdesk/core'
import { ERROR_STATUS } from '../error-status.ts'
import type { JsonSchema } from './json-schema.ts'

const ref = (to: string): JsonSchema => ({ $ref: to })

/** Reusable headers of responses (`components.headers`). */
export const RESPONSE_HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': {
    description: 'Id of this request (the caller’s own `X-Request-Id` when it is 8–128 of `A-Z a-z 0-9 . _ : -` and holds nothing shaped like a key or token, else a new UUID). Quote it when reporting a problem.',
    required: true,
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: '`private, max-age=60` for cacheable content-area replies, `no-store` for everything else (search, preview, inquiries, errors).',
    schema: { type: 'string' },
  },
  ETag: { description: 'Strong validator of a cacheable reply; send it back as `If-None-Match` to get 304.', schema: { type: 'string' } },
  'RateLimit-Limit': {
    description: 'The key’s quota: its bucket’s capacity (twice its rate per second), the most requests it can make at once (draft-ietf-httpapi-ratelimit-headers-06); absent for a key without a limit.',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': { description: 'Requests the key can make now, from 0 to `RateLimit-Limit`.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until `RateLimit-Remaining` is back to `RateLimit-Limit` (0 when it is); on a 429 the same moment as `Retry-After`.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Policy': { description: 'The quota policy `<limit>;w=<seconds>`: a client keeping to `limit` requests per `w` seconds is never refused (100/s with bursts of 200 is `200;w=2`).', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying (for a key’s limit: until its whole quota is back, as `RateLimit-Reset`).', required: true, schema: { type: 'integer', minimum: 1 } },
  'Idempotent-Replayed': { description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.', schema: { const: 'true' } },
  Allow: { description: 'The methods the path accepts.', required: true, schema: { type: 'string' } },
}

const rateLimitHeaders = {
  'RateLimit-Limit': ref('#/components/headers/RateLimit-Limit'),
  'RateLimit-Remaining': ref('#/components/headers/RateLimit-Remaining'),
  'RateLimit-Reset': ref('#/components/headers/RateLimit-Reset'),
  'RateLimit-Policy': ref('#/components/headers/RateLimit-Policy'),
}

/** The headers of a successful keyed reply; `cacheable` adds `ETag`. */
export function successHeaders(cacheable: boolean): JsonSchema {
  return {
    'X-Request-Id': ref('#/components/headers/X-Request-Id'),
    'Cache-Control': ref('#/components/headers/Cache-Control'),
    ...(cacheable ? { ETag: ref('#/components/headers/ETag') } : {}),
    ...rateLimitHeaders,
  }
}

/** Reusable request parameters (`components.parameters`). */
export const PARAMETERS: Record<string, JsonSchema> = {
  PreviewTokenHeader: {
    name: 'X-Preview-Token',
    in: 'header',
    description: 'A preview token (`fdv_…`, created with `frontdesk preview create`): makes the draft or scheduled item it is bound to (or every item of its category) visible. Still needs a key with `cms:read`. Preview replies are `no-store`.',
    schema: { type: 'string' },
  },
  PreviewTokenQuery: {
    name: 'preview_token',
    in: 'query',
    description: 'The preview token as a query parameter (for preview URLs); same effect as `X-Preview-Token`, which wins when both are sent.',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'An `ETag` from an earlier reply: 304 without a body when it still matches (checked after the key and permission).',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description: 'Makes retries safe: the same key with the same body within 24 h returns the first response again (with `Idempotent-Replayed: true`) and creates nothing; with another body 422 `IDEMPOTENCY_KEY_REUSED`; while the first is in flight 409 `IDEMPOTENCY_IN_PROGRESS`. Scoped to the tenant.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  RequestId: {
    name: 'X-Request-Id',
    in: 'header',
    description: 'Your own id for this request (8–128 of `A-Z a-z 0-9 . _ : -`), echoed back and written to the access log.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
  },
}

/** Descriptions of the list query parameters that core parses from text. */
export const LIST_PARAMETER_DESCRIPTIONS: Record<string, string> = {
  category_code: 'Only items of the category with this code. Recommended (this or `category_id`).',
  category_id: 'Only items of the category with this id.',
  tags: `Comma-separated tag names; an item must carry all of them (AND). At most ${LIST_LIMITS.maxTags}.`,
  tag_ids: `Comma-separated tag ids; an item must carry all of them (AND). At most ${LIST_LIMITS.maxTags}.`,
  field_filters: `Comma-separated \`<field_id>:<value>\` pairs, split at the first \`:\`; exact match on the custom field's value. At most ${LIST_LIMITS.maxFieldFilters} pairs; an unknown field id or an empty value is a 400.`,
  sort: '`published_at`, `title`, `updated_at` or `custom_<field name>`, followed by `:asc` or `:desc`. Default `published_at:desc`; ties are broken by id.',
  limit: `Page size, 1 to ${LIST_LIMITS.maxLimit}, default ${LIST_LIMITS.defaultLimit}.`,
  cursor: '`pagination.next_cursor` of the previous page. Valid only with the same filters and sort (else 400 on field `cursor`); survives server restarts.',
}

/** Why each error status happens, for the responses' descriptions. */
const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: every invalid field, query parameter, malformed JSON body (field `body`) or bad cursor (field `cursor`) is listed in `details`.',
  401: 'No or unknown `X-API-Key` (`UNAUTHORIZED`), a disabled key (`API_KEY_DISABLED`), or a malformed, forged, revoked, other tenant’s (`PREVIEW_TOKEN_INVALID`) or expired (`PREVIEW_TOKEN_EXPIRED`) preview token.',
  403: 'The key lacks the endpoint’s permission (`FORBIDDEN`; the message names the permission needed and those the key has), a personal key or an `Authorization` header was sent (`CREDENTIAL_NOT_ALLOWED`), or the request did not come over HTTPS (`HTTPS_REQUIRED`).',
  404: 'The content, category or route does not exist or is not visible to this request.',
  405: 'The path exists but not with this method; `Allow` lists the methods it has.',
  408: 'The request was not sent in time (headers within 10 s, the whole request within 30 s); answered before routing, and the connection is closed.',
  409: 'An earlier request with the same `Idempotency-Key` is still being processed; retry with the same key after `Retry-After` seconds (by then it is done and replays, or, if its server died, its claim has lapsed).',
  413: 'The JSON body is larger than 64 KiB.',
  415: 'The body is not `application/json`.',
  422: 'The `Idempotency-Key` was used before with a different body.',
  429: 'Rate limit exceeded (the key’s bucket, or failed authentications from this address); wait `Retry-After` seconds.',
  431: 'The request headers are too large.',
  500: 'Something unexpected happened; the body reveals nothing more. Quote `X-Request-Id`.',
  503: 'Storage is temporarily unavailable; retry after `Retry-After` seconds.',
}

/** The error codes answered with `status`, from the one status table (`ERROR_STATUS`). */
export function codesOf(status: number): string[] {
  return Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([code]) => code)
}

/** The error statuses of the API (every status of `ERROR_STATUS`). */
export function errorStatuses(): number[] {
  return [...new Set<number>(Object.values(ERROR_STATUS))].sort((a, b) => a - b)
}

/** `components.responses`: one error response per status, plus 304. */
export function errorResponses(): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {
    NotModified: {
      description: 'The `If-None-Match` validator still matches: no body.',
      headers: { 'X-Request-Id': ref('#/components/headers/X-Request-Id'), ETag: ref('#/components/headers/ETag') },
    },
  }
  for (const status of errorStatuses()) {
    const headers: JsonSchema = { 'X-Request-Id': ref('#/components/headers/X-Request-Id'), ...rateLimitHeaders }
    if (status === 409 || status === 429 || status === 503) headers['Retry-After'] = ref('#/components/headers/Retry-After')
    if (status === 405) headers.Allow = ref('#/components/headers/Allow')
    responses[`Error${status}`] = {
      description: STATUS_DESCRIPTIONS[status] ?? `Error ${status}.`,
      headers,
      content: { 'application/json': { schema: errorSchema(codesOf(status), status === 400) } },
    }
  }
  return responses
}

/** The body of an error: `{"error": {"code", "message", "details"?}}`. */
function errorSchema(codes: string[], withDetails: boolean): JsonSchema {
  return {
    type: 'object',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { enum: codes },
          message: { type: 'string' },
          details: { type: 'array', items: ref('#/components/schemas/ErrorDetail'), ...(withDetails ? { minItems: 1 } : {}) },
        },
        required: withDetails ? ['code', 'message', 'details'] : ['code', 'message'],
        additionalProperties: false,
      },
    },
    required: ['error'],
    additionalProperties: false,
  }
}

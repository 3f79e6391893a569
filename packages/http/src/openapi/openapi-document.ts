import type { Operation } from '@frontdesk/core'
import { OPERATIONS, SEARCH_LIMITS } from '@frontdesk/core'
import { ROUTES } from '../routes.ts'
import type { JsonSchema } from './json-schema.ts'
import { errorResponses, LIST_PARAMETER_DESCRIPTIONS, PARAMETERS, RESPONSE_HEADERS, successHeaders } from './openapi-components.ts'
import { requestSchemas } from './request-schemas.ts'
import { responseSchemas } from './response-schemas.ts'

/** Where the document is served (no key needed). */
export const OPENAPI_PATH = '/v1/openapi.json'
/** The health check for load balancers (no key needed). */
export const HEALTH_PATH = '/healthz'

const ref = (to: string): JsonSchema => ({ $ref: to })
const json = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema } })
const param = (name: string): JsonSchema => ref(`#/components/parameters/${name}`)
const pathParam = (name: string, description: string): JsonSchema => ({ name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } })

interface OperationDoc {
  summary: string
  description?: string
  parameters?: JsonSchema[]
  requestBody?: JsonSchema
  /** The success status and body schema. */
  success: { status: 200 | 201; schema: string; description: string; cacheable: boolean; headers?: JsonSchema }
  /** Error statuses beyond the ones every keyed operation has (401, 403, 429, 500, 503). */
  errors: number[]
}

const COMMON_ERRORS = [401, 403, 429, 500, 503]

function operationDocs(): Record<Operation, OperationDoc> {
  const schemas = requestSchemas()
  const listParameters = Object.entries(schemas.listParameters)
    .filter(([name]) => name !== 'preview_token')
    .map(([name, schema]): JsonSchema => ({ name, in: 'query', description: LIST_PARAMETER_DESCRIPTIONS[name], schema }))
  const preview = [param('PreviewTokenHeader'), param('PreviewTokenQuery')]
  const detail = (what: string): Omit<OperationDoc, 'summary' | 'parameters'> => ({
    description: `${what} Returns only visible content (published, \`published_at\` reached, active category) unless a preview token opens it. Cached for up to 60 s (\`ETag\`, 304).`,
    success: { status: 200, schema: 'ContentDetail', description: 'The content item.', cacheable: true },
    errors: [304, 404],
  })
  return {
    listContents: {
      summary: 'List published content',
      description:
        'One page of visible content, filtered and sorted; walk further pages with `cursor` = `pagination.next_cursor` (a walk returns every item that stayed visible exactly once). ' +
        'A category-bound preview token also lists that category’s unpublished items when the list is filtered to that category. Cached for up to 60 s (`ETag`, 304); preview replies are `no-store`.',
      parameters: [...listParameters, ...preview, param('IfNoneMatch')],
      success: { status: 200, schema: 'ContentList', description: 'A page of content list items.', cacheable: true },
      // A category filter naming no category is an empty list, not a 404 (README "Content list").
      errors: [304, 400],
    },
    getContent: { summary: 'Content detail by id', parameters: [pathParam('id', 'Content id.'), ...preview, param('IfNoneMatch')], ...detail('The content item with this id.') },
    getContentBySlug: {
      summary: 'Content detail by slug',
      parameters: [pathParam('slug', 'Content slug (unique per tenant).'), ...preview, param('IfNoneMatch')],
      ...detail('The content item with this slug; the same body as detail by id.'),
    },
    listCategories: {
      summary: 'List active categories',
      description: 'Active categories ordered by `sort`, then `code`. Cached for up to 60 s (`ETag`, 304).',
      parameters: [param('IfNoneMatch')],
      success: { status: 200, schema: 'CategoryList', description: 'The active categories.', cacheable: true },
      errors: [304],
    },
    getCategory: {
      summary: 'Category detail with custom-field definitions',
      description: 'An inactive category is 404. Cached for up to 60 s (`ETag`, 304).',
      parameters: [pathParam('id', 'Category id (not its code: a code is a 404 whose message names the id).'), param('IfNoneMatch')],
      success: { status: 200, schema: 'CategoryDetail', description: 'The category and its custom-field definitions.', cacheable: true },
      errors: [304, 404],
    },
    search: {
      summary: 'Full-text search',
      description:
        `Terms are combined with AND, each also matches as a prefix, Latin terms of 5+ letters tolerate one typo; Japanese, Chinese and Korean text is searchable by any word inside it. ` +
        `Searches title (weighted highest), summary, body, tags and text/select custom fields of visible content; a change is searchable within 1 s. ` +
        `\`from + size\` at most ${SEARCH_LIMITS.maxWindow}. Never cached (\`no-store\`); preview tokens do not apply.`,
      requestBody: { required: true, content: json(schemas.searchRequest) },
      success: { status: 200, schema: 'SearchResponse', description: 'A page of search results.', cacheable: false },
      errors: [400, 413, 415],
    },
    createInquiry: {
      summary: 'Create an inquiry',
      description:
        'Validated strictly (unknown fields, wrong types, limits; one detail per invalid field); `category_code` must name an active inquiry category. ' +
        'A 201 is durable. Send an `Idempotency-Key` to retry safely.',
      parameters: [param('IdempotencyKey')],
      requestBody: { required: true, content: json(schemas.inquiryInput) },
      success: {
        status: 201,
        schema: 'InquiryCreated',
        description: 'The inquiry was created (or, with `Idempotent-Replayed: true`, an earlier identical request’s response is replayed).',
        cacheable: false,
        headers: { 'Idempotent-Replayed': ref('#/components/headers/Idempotent-Replayed') },
      },
      errors: [400, 409, 413, 415, 422],
    },
    listInquiryCategories: {
      summary: 'List inquiry categories',
      description: 'Active inquiry categories ordered by `sort`, to fill a form’s selector. `no-store`: a category switched off disappears at once.',
      success: { status: 200, schema: 'InquiryCategoryList', description: 'The active inquiry categories.', cacheable: false },
      errors: [],
    },
  }
}

function pathOf(segments: readonly string[]): string {
  return `/${segments.map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/')}`
}

function responsesOf(doc: OperationDoc): JsonSchema {
  const responses: JsonSchema = {
    [String(doc.success.status)]: {
      description: doc.success.description,
      headers: { ...successHeaders(doc.success.cacheable), ...doc.success.headers },
      content: json(ref(`#/components/schemas/${doc.success.schema}`)),
    },
  }
  for (const status of [...doc.errors, ...COMMON_ERRORS].sort((a, b) => a - b)) {
    responses[String(status)] = ref(status === 304 ? '#/components/responses/NotModified' : `#/components/responses/Error${status}`)
  }
  return responses
}

const INFO_DESCRIPTION = `Tenant-scoped content delivery and inquiries over HTTPS. Every /v1 endpoint except this document needs a tenant API key in \`X-API-Key\`
(never in a query parameter), used from a server, never from browser code. Plain HTTP is refused.

Errors are \`{"error": {"code", "message", "details"?}}\`; checks run in this order: route (404/405) → credential (401/403) → permission (403) →
input (400, 413, 415) → resource (404). Every response carries \`X-Request-Id\`. Keys may be rate limited (\`RateLimit-*\` headers; 429 with
\`Retry-After\`). A wrong method on a known path gets 405 \`METHOD_NOT_ALLOWED\` with \`Allow\`; an unknown path 404 \`NOT_FOUND\`. A server may also
answer 408 \`REQUEST_TIMEOUT\` (request not sent within 30 s) or 431 \`HEADERS_TOO_LARGE\` before routing.`

/**
 * The OpenAPI 3.1 document of the whole `/v1` API: every route of `ROUTES` (a route without a
 * description is a type error), request schemas derived from core's valibot schemas, response
 * schemas, every error status of `ERROR_STATUS`, the `X-API-Key` scheme, preview tokens,
 * `Idempotency-Key`, rate-limit headers and conditional requests. Also describes `GET
 * /v1/openapi.json` and `GET /healthz`, which need no key. A fresh object on every call.
 */
export function openApiDocument(options: { serverUrl?: string } = {}): JsonSchema {
  const docs = operationDocs()
  const paths: Record<string, JsonSchema> = {}
  for (const route of ROUTES) {
    const doc = docs[route.operation]
    const permission = OPERATIONS[route.operation]
    const path = pathOf(route.segments)
    paths[path] ??= {}
    const item = paths[path] as JsonSchema
    item[route.method.toLowerCase()] = {
      operationId: route.operation,
      summary: doc.summary,
      description: `${doc.description ?? ''}\n\nPermission: \`${permission}\`${permission.startsWith('cms:') ? ' (or `cms:*`)' : ''}.`.trim(),
      tags: [route.segments[1] === 'cms' ? 'content' : 'inquiries'],
      'x-permission': permission,
      security: [{ apiKey: [] }],
      parameters: [...(doc.parameters ?? []), param('RequestId')],
      ...(doc.requestBody === undefined ? {} : { requestBody: doc.requestBody }),
      responses: responsesOf(doc),
    }
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      description: 'Served without a key, so that tools can read it; it describes the API, never a tenant’s data.',
      tags: ['meta'],
      security: [],
      responses: {
        '200': { description: 'The OpenAPI 3.1 document.', headers: { 'X-Request-Id': ref('#/components/headers/X-Request-Id') }, content: json({ type: 'object', properties: { openapi: { const: '3.1.0' }, paths: { type: 'object' } }, required: ['openapi', 'paths'] }) },
        '304': ref('#/components/responses/NotModified'),
        '403': ref('#/components/responses/Error403'),
      },
    },
  }
  paths[HEALTH_PATH] = {
    get: {
      operationId: 'getHealth',
      summary: 'Health check for load balancers',
      description: 'No key needed, and accepted over plain HTTP too (it carries no secret). 200 when the database answers (and the search engine is open), else 503. Not cached.',
      tags: ['meta'],
      security: [],
      responses: {
        '200': { description: 'The server and its database answer.', content: json(ref('#/components/schemas/Health')) },
        '503': { description: 'The database does not answer (or the server is shutting down).', content: json(ref('#/components/schemas/Health')) },
      },
    },
  }
  return structuredClone({
    openapi: '3.1.0',
    info: { title: 'frontdesk API', version: '1', description: INFO_DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: options.serverUrl ?? '/', description: 'This server (the document is served at /v1/openapi.json).' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'content', description: 'Published content, categories and search.' },
      { name: 'inquiries', description: 'Inquiry creation and inquiry categories.' },
      { name: 'meta', description: 'Keyless endpoints for tools and load balancers.' },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'A tenant API key (`fdk_…`), created with `frontdesk key create`. Personal keys (`fdp_…`) and OAuth tokens get 403 `CREDENTIAL_NOT_ALLOWED`.',
        },
      },
      schemas: responseSchemas(),
      parameters: PARAMETERS,
      headers: RESPONSE_HEADERS,
      responses: errorResponses(),
    },
  })
}

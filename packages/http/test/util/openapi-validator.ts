import type { IncomingHttpHeaders } from 'node:http'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { JsonSchema } from '@frontdesk/http'

// Hint: ajv-formats is CommonJS with a default export; under ESM the function sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020

type Json = JsonSchema

/** A response as checked against the document. */
export interface CheckedResponse {
  status: number
  headers: IncomingHttpHeaders
  /** The raw body text ('' for none). */
  text: string
}

/**
 * Checks real responses against an OpenAPI 3.1 document: the operation (by method and path
 * template) must document the status; the headers it marks `required` must be present; the
 * body must be valid JSON matching the response's schema (validated by ajv, draft 2020-12,
 * strict mode, with formats). Requests to no documented operation (unknown path, wrong
 * method) are checked against `components.responses.Error404` / `Error405`, and a 431 (refused
 * before routing) against `Error431`.
 */
export class OpenApiValidator {
  readonly #doc: Json
  readonly #ajv: Ajv2020
  readonly #compiled = new Map<unknown, ValidateFunction>()
  readonly #defs: Json

  constructor(doc: Json) {
    this.#doc = doc
    this.#ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }))
    this.#ajv.addKeyword('x-permission')
    const components = doc.components as Json
    this.#defs = rewriteRefs(components.schemas) as Json
  }

  /** Compiles a schema of the document (its `#/components/schemas/…` refs resolved), cached. */
  compile(schema: unknown): ValidateFunction {
    let validate = this.#compiled.get(schema)
    if (validate === undefined) {
      validate = this.#ajv.compile({ ...(rewriteRefs(schema) as Json), $defs: this.#defs })
      this.#compiled.set(schema, validate)
    }
    return validate
  }

  /** The operation object for a method and a concrete path, or `null`. */
  operation(method: string, path: string): Json | null {
    const pathname = path.split('?')[0] ?? ''
    const paths = this.#doc.paths as Record<string, Json>
    for (const [template, item] of Object.entries(paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)
      if (!pattern.test(pathname)) continue
      const op = item[(method === 'HEAD' ? 'GET' : method).toLowerCase()]
      if (op !== undefined) return op as Json
    }
    return null
  }

  /** Problems of `response` to `method path` against the document (empty: conforms). */
  check(method: string, path: string, response: CheckedResponse): string[] {
    const op = this.operation(method, path)
    const where = `${method} ${path} → ${response.status}`
    let documented: unknown
    // Hint: 404/405 (no operation) and 431 (refused before routing) are the API-wide responses of `components`.
    const apiWide = ((this.#doc.components as Json).responses as Json)[`Error${response.status}`]
    if (op === null) {
      if (response.status !== 404 && response.status !== 405) return [`${where}: no documented operation`]
      documented = apiWide
    } else {
      documented = (op.responses as Json)[String(response.status)] ?? (response.status === 431 ? apiWide : undefined)
    }
    if (documented === undefined) return [`${where}: status not documented`]
    const resolved = this.resolve(documented) as Json
    const problems: string[] = []
    for (const [name, header] of Object.entries((resolved.headers ?? {}) as Json)) {
      const spec = this.resolve(header) as Json
      if (spec.required === true && response.headers[name.toLowerCase()] === undefined) problems.push(`${where}: required header ${name} missing`)
    }
    const content = resolved.content as Json | undefined
    if (content === undefined) {
      if (response.text !== '') problems.push(`${where}: a body was sent where none is documented`)
      return problems
    }
    const media = content['application/json'] as Json | undefined
    if (media === undefined) return [...problems, `${where}: no application/json content documented`]
    if (!String(response.headers['content-type']).startsWith('application/json')) problems.push(`${where}: content-type ${response.headers['content-type']}`)
    let body: unknown
    try {
      body = JSON.parse(response.text)
    } catch {
      return [...problems, `${where}: body is not JSON: ${response.text.slice(0, 80)}`]
    }
    const validate = this.compile(media.schema)
    if (!validate(body)) problems.push(`${where}: ${this.#ajv.errorsText(validate.errors)} in ${response.text.slice(0, 300)}`)
    return problems
  }

  /**
   * Problems of a request the server *accepted* (2xx) against the document's request schemas:
   * every query parameter must be documented and valid (integers read from text), and a JSON
   * body must match the request body schema. A document stricter than the server fails here.
   */
  checkAcceptedRequest(method: string, path: string, body: unknown): string[] {
    const op = this.operation(method, path)
    if (op === null) return []
    const where = `${method} ${path} (accepted)`
    const problems: string[] = []
    const parameters = ((op.parameters ?? []) as unknown[]).map((p) => this.resolve(p) as Json)
    for (const [name, value] of new URL(path, 'https://x').searchParams) {
      const parameter = parameters.find((p) => p.in === 'query' && p.name === name)
      if (parameter === undefined) {
        problems.push(`${where}: query parameter ${name} is not documented`)
        continue
      }
      const schema = parameter.schema as Json
      const typed = schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value
      const validate = this.compile(schema)
      if (!validate(typed)) problems.push(`${where}: ${name}=${value}: ${this.#ajv.errorsText(validate.errors)}`)
    }
    const requestBody = op.requestBody as Json | undefined
    if (requestBody !== undefined && body !== undefined) {
      const validate = this.compile(((requestBody.content as Json)['application/json'] as Json).schema)
      if (!validate(body)) problems.push(`${where}: body ${JSON.stringify(body).slice(0, 200)}: ${this.#ajv.errorsText(validate.errors)}`)
    }
    return problems
  }

  /** Follows `$ref`s (`#/…` pointers into the document) until a plain object. */
  resolve(value: unknown): unknown {
    let current = value
    for (let hops = 0; hops < 10; hops++) {
      const target = (current as Json | null)?.$ref
      if (typeof target !== 'string') return current
      current = pointer(this.#doc, target)
      if (current === undefined) throw new Error(`unresolved $ref ${target}`)
    }
    throw new Error('$ref loop')
  }
}

/** The value at a `#/a/b` JSON pointer of `doc`. */
export function pointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  let current: unknown = doc
  for (const part of ref.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~')
    current = typeof current === 'object' && current !== null ? (current as Json)[key] : undefined
  }
  return current
}

/** Every `$ref` string in `value`. */
export function refsOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsOf(item, into)
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') into.push(item)
      else refsOf(item, into)
    }
  }
  return into
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs)
  if (typeof value !== 'object' || value === null) return value
  const out: Json = {}
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof item === 'string' ? item.replace('#/components/schemas/', '#/$defs/') : rewriteRefs(item)
  }
  return out
}

import { ERROR_STATUS } from '../error-status.ts'
import type { JsonSchema } from './json-schema.ts'
import { openApiMarkdown } from './openapi-markdown.ts'

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** The file `npm run docs:api` writes, relative to the repository's root. */
export const API_REFERENCE_PATH = 'docs/API.md'

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value)

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ')
}

const code = (text: string): string => `\`${text.replaceAll('`', 'ˋ')}\``

/** The GitHub anchor of a heading made only of a word: its lower case. */
const anchor = (name: string): string => `#${name.toLowerCase()}`

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1)
}

function resolve(doc: JsonSchema, item: JsonSchema): JsonSchema {
  let current = item
  for (let depth = 0; depth < 5 && typeof current.$ref === 'string'; depth++) {
    let target: unknown = doc
    for (const part of current.$ref.slice(2).split('/')) target = isObject(target) ? target[part] : undefined
    if (!isObject(target)) throw new Error(`Unresolved $ref ${current.$ref}`)
    current = target
  }
  return current
}

/** A schema's type in words: `string`, `integer`, `string[]`, `[Category](#category)`, `string \| null`. */
function typeOf(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref)
    return `[${name}](${anchor(name)})`
  }
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(typeOf).join(' or ')
  if ('const' in schema) return code(JSON.stringify(schema.const))
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((value) => code(JSON.stringify(value))).join(', ')
  if (Array.isArray(schema.type)) return (schema.type as string[]).join(' or ')
  if (schema.type === 'array') return isObject(schema.items) ? `array of ${typeOf(schema.items)}` : 'array'
  if (typeof schema.type === 'string') return schema.type
  return 'any JSON value'
}

/** The constraints a schema states (lengths, ranges, pattern, format, default), in words. */
function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = []
  const n = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number).toLocaleString('en-US') : null)
  const range = (low: string | null, high: string | null, unit: string) => {
    const units = (count: string) => (count === '1' ? unit.replace(/s$/, '') : unit)
    if (low !== null && high !== null) out.push(`${low}–${high} ${unit}`.trim())
    else if (low !== null) out.push(`at least ${low} ${units(low)}`.trim())
    else if (high !== null) out.push(`at most ${high} ${units(high)}`.trim())
  }
  range(n('minLength'), n('maxLength'), 'characters')
  range(n('minimum'), n('maximum'), '')
  range(n('minItems'), n('maxItems'), 'items')
  range(n('minProperties'), n('maxProperties'), 'keys')
  if (typeof schema.pattern === 'string') out.push(`matches ${code(schema.pattern)}`)
  if (isObject(schema.propertyNames) && typeof schema.propertyNames.pattern === 'string') out.push(`keys match ${code(schema.propertyNames.pattern)}`)
  if (typeof schema.format === 'string') out.push(`format ${schema.format}`)
  if ('default' in schema) out.push(`default ${code(JSON.stringify(schema.default))}`)
  return out
}

interface FieldRow {
  field: string
  type: string
  required: boolean
  constraints: string[]
  description: string
}

/** The description of a schema, with those of its alternatives (`anyOf`). */
function descriptionOf(schema: JsonSchema): string {
  const own = typeof schema.description === 'string' ? [schema.description] : []
  const alternatives = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]).map(descriptionOf).filter((text) => text !== '') : []
  return [...own, ...alternatives].join(' ')
}

/** Constraints of a schema and of its alternatives (`anyOf`): a nullable string keeps its lengths. */
function allConstraints(schema: JsonSchema): string[] {
  return [...constraintsOf(schema), ...(Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]).flatMap(allConstraints) : [])]
}

/**
 * Every field of an object schema as rows, nested inline objects flattened into dot paths
 * (`pagination.count`), items of arrays as `[]` (`items[]`), free-form keys as `<key>`. A
 * `$ref` is not followed: its row links to the schema's own table.
 */
function fieldRows(schema: JsonSchema, prefix: string, keyName: string): FieldRow[] {
  const rows: FieldRow[] = []
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  const properties = isObject(schema.properties) ? schema.properties : {}
  for (const [name, value] of Object.entries(properties)) {
    if (!isObject(value)) continue
    const path = `${prefix}${name}`
    rows.push({ field: path, type: typeOf(value), required: required.has(name), constraints: allConstraints(value), description: descriptionOf(value) })
    rows.push(...nestedRows(value, path))
  }
  if (isObject(schema.additionalProperties)) {
    const path = `${prefix}<${keyName}>`
    const value = schema.additionalProperties
    rows.push({ field: path, type: typeOf(value), required: false, constraints: allConstraints(value), description: descriptionOf(value) })
    rows.push(...nestedRows(value, path))
  }
  return rows
}

function nestedRows(schema: JsonSchema, path: string): FieldRow[] {
  if (schema.type === 'object' && (isObject(schema.properties) || isObject(schema.additionalProperties))) {
    const keyName = isObject(schema.propertyNames) && typeof schema.propertyNames.pattern === 'string' && schema.propertyNames.pattern.startsWith('^custom_') ? 'custom_name' : 'key'
    return fieldRows(schema, `${path}.`, path === 'content' ? 'field name' : keyName)
  }
  if (schema.type === 'array' && isObject(schema.items) && schema.items.$ref === undefined) return nestedRows(schema.items, `${path}[]`)
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).flatMap((alternative) => nestedRows(alternative, path))
  return []
}

function fieldTable(rows: FieldRow[]): string[] {
  return [
    '| Field | Type | Required | Constraints | Description |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${code(r.field)} | ${escapeCell(r.type)} | ${r.required ? 'yes' : 'no'} | ${escapeCell(r.constraints.join('; '))} | ${escapeCell(r.description)} |`),
  ]
}

function parameterTable(doc: JsonSchema, parameters: JsonSchema[]): string[] {
  return [
    '| Parameter | In | Type | Required | Constraints | Description |',
    '|---|---|---|---|---|---|',
    ...parameters.map((p) => {
      const parameter = resolve(doc, p)
      const schema = isObject(parameter.schema) ? parameter.schema : {}
      return `| ${code(String(parameter.name))} | ${String(parameter.in)} | ${escapeCell(typeOf(schema))} | ${parameter.required === true ? 'yes' : 'no'} | ${escapeCell(constraintsOf(schema).join('; '))} | ${escapeCell(String(parameter.description ?? ''))} |`
    }),
  ]
}

/** The error codes a status is answered with, from the error response's schema. */
function codesOfResponse(response: JsonSchema): string[] {
  const schema = (((response.content as JsonSchema | undefined)?.['application/json'] as JsonSchema | undefined)?.schema ?? {}) as JsonSchema
  const error = ((schema.properties as JsonSchema | undefined)?.error ?? {}) as JsonSchema
  const codeSchema = ((error.properties as JsonSchema | undefined)?.code ?? {}) as JsonSchema
  return Array.isArray(codeSchema.enum) ? (codeSchema.enum as string[]) : []
}

function operationSection(doc: JsonSchema, method: string, path: string, op: JsonSchema): string[] {
  const lines = [`### ${method.toUpperCase()} ${path}`, '', `**${String(op.summary)}.** ${String(op.description ?? '')}`.trim(), '']
  const parameters = Array.isArray(op.parameters) ? (op.parameters as JsonSchema[]) : []
  if (parameters.length > 0) lines.push('Parameters:', '', ...parameterTable(doc, parameters), '')
  const body = isObject(op.requestBody) ? ((op.requestBody.content as JsonSchema)['application/json'] as JsonSchema).schema : undefined
  if (isObject(body)) {
    const unknown = body.additionalProperties === false ? ' any other field is a 400 `VALIDATION_ERROR` naming it.' : ''
    lines.push(`Request body (\`application/json\`, at most 64 KiB):${unknown}`, '', ...fieldTable(fieldRows(body, '', 'key')), '')
  }
  lines.push('| Status | Body | Codes | When |', '|---|---|---|---|')
  for (const [status, value] of Object.entries(op.responses as JsonSchema)) {
    const response = resolve(doc, value as JsonSchema)
    const content = (response.content as JsonSchema | undefined)?.['application/json'] as JsonSchema | undefined
    const schema = isObject(content?.schema) ? content.schema : undefined
    const codes = codesOfResponse(response)
    const bodyType = schema === undefined ? 'none' : codes.length > 0 ? '[Error](#errors)' : typeOf(schema)
    // Hint: an error status's causes are in the Errors section; here they would repeat on every operation.
    const when = codes.length > 0 ? '' : String(response.description ?? '')
    lines.push(`| ${status} | ${escapeCell(bodyType)} | ${codes.map(code).join(', ')} | ${escapeCell(when)} |`)
  }
  lines.push('')
  return lines
}

function errorSection(doc: JsonSchema): string[] {
  const responses = (doc.components as JsonSchema).responses as Record<string, JsonSchema>
  const lines = [
    '## Errors',
    '',
    'Every error has the body `{"error": {"code": "…", "message": "…", "details": […]}}`: `code` is one of the codes below and is what a',
    'program should test, `message` is for people and may be reworded, `details` is present on a 400 (one entry per invalid field).',
    'Checks run in this order: route → credential → permission → input → resource, so the first failing check decides the answer.',
    '',
    '| Code | Status |',
    '|---|---|',
    ...Object.entries(ERROR_STATUS).map(([name, status]) => `| ${code(name)} | ${status} |`),
    '',
    'What each status means:',
    '',
    '| Status | Codes | When |',
    '|---|---|---|',
  ]
  for (const [name, response] of Object.entries(responses)) {
    const status = /^Error(\d{3})$/.exec(name)?.[1]
    if (status === undefined) continue
    lines.push(`| ${status} | ${codesOfResponse(response).map(code).join(', ')} | ${escapeCell(String(response.description ?? ''))} |`)
  }
  lines.push('', 'An entry of `details` is an [ErrorDetail](#errordetail).', '')
  return lines
}

/**
 * The whole API reference as one Markdown page, generated from the OpenAPI document: every
 * operation with its parameters, every field of its request body (type, whether required,
 * constraints, meaning), its responses and their error codes; every response body's fields;
 * every error code and status; the response headers. `npm run docs:api` writes it to
 * `docs/API.md`, and a test fails when that file is not what this returns.
 */
export function openApiReference(doc: JsonSchema): string {
  const info = doc.info as JsonSchema
  const components = doc.components as JsonSchema
  const lines = [
    `# ${String(info.title)} reference`,
    '',
    '<!-- Generated from the OpenAPI document by `npm run docs:api`; edit the document (packages/http/src/openapi), not this file. -->',
    '',
    'The same document is served at `GET /v1/openapi.json` (no key needed), for tools that generate clients.',
    '',
    String(info.description),
    '',
    '## Contents',
    '',
    '- [Endpoints](#endpoints)',
    '- [Operations](#operations)',
    '- [Response bodies](#response-bodies)',
    '- [Errors](#errors)',
    '- [Response headers](#response-headers)',
    '',
    '## Endpoints',
    '',
    ...openApiMarkdown(doc).split('\n\n')[0]!.split('\n'),
    '',
    '## Operations',
    '',
  ]
  for (const [path, item] of Object.entries(doc.paths as Record<string, JsonSchema>)) {
    for (const method of METHODS) {
      const op = item[method]
      if (isObject(op)) lines.push(...operationSection(doc, method, path, op))
    }
  }
  lines.push('## Response bodies', '')
  for (const [name, schema] of Object.entries(components.schemas as Record<string, JsonSchema>)) {
    lines.push(`### ${name}`, '', String(schema.description ?? ''), '')
    if (isObject(schema.properties)) lines.push(...fieldTable(fieldRows(schema, '', 'key')), '')
    else lines.push(`Type: ${typeOf(schema)}.`, '')
  }
  lines.push(...errorSection(doc))
  lines.push('## Response headers', '', '| Header | Description |', '|---|---|')
  for (const [name, header] of Object.entries(components.headers as Record<string, JsonSchema>)) lines.push(`| ${code(name)} | ${escapeCell(String(header.description ?? ''))} |`)
  return `${lines.join('\n')}\n`
}

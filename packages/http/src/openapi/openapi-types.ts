import type { JsonSchema } from './json-schema.ts'

const HEADER = `// Generated from the OpenAPI document's response schemas (\`components.schemas\`), which
// @frontdesk/core defines once (\`RESPONSE_BODIES\`): change them there and run
// \`npm run generate:client\`; a test fails while this file is out of date.
`

/**
 * TypeScript declarations of the document's `components.schemas`: one exported type per
 * schema, in the document's order (an interface for an object, else a type alias), with the
 * schemas' descriptions as JSDoc. `npm run generate:client` writes them to the client's
 * `api-types.ts`, so that the client, which imports nothing at run time, declares the very
 * shapes the server documents. Covers the keywords core's schemas produce: `$ref`, `anyOf`,
 * `enum`, `const`, `type` (one or several), `properties`/`required`,
 * `additionalProperties`, `items`; constraints (`pattern`, `format`, bounds) have no type.
 */
export function openApiTypes(doc: JsonSchema): string {
  const schemas = (doc.components as JsonSchema).schemas as Record<string, JsonSchema>
  const blocks = Object.entries(schemas).map(([name, schema]) => {
    const docs = jsDoc(schema, '')
    if (isObject(schema)) return `${docs}export interface ${name} ${objectType(schema, '')}\n`
    return `${docs}export type ${name} = ${typeOf(schema, '')}\n`
  })
  return `${HEADER}\n${blocks.join('\n')}`
}

function isObject(schema: JsonSchema): boolean {
  return schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined)
}

/** The type of `schema` as written at `indent`. */
function typeOf(schema: JsonSchema, indent: string): string {
  if (typeof schema.$ref === 'string') return schema.$ref.replace(/^#\/components\/schemas\//, '')
  if (Array.isArray(schema.anyOf)) return union((schema.anyOf as JsonSchema[]).map((member) => typeOf(member, indent)))
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal))
  if ('const' in schema) return literal(schema.const)
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => typeOf({ ...schema, type }, indent)))
  switch (schema.type) {
    case 'string':
      return 'string'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array': {
      const item = typeOf((schema.items ?? {}) as JsonSchema, indent)
      return item.includes(' | ') && !item.startsWith('{') ? `(${item})[]` : `${item}[]`
    }
    case 'object':
      return objectType(schema, indent)
    default:
      return 'unknown'
  }
}

/** A JSON value as a TypeScript literal type; strings in single quotes, as the code base writes them. */
function literal(value: unknown): string {
  const json = JSON.stringify(value)
  return typeof value === 'string' ? `'${json.slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'` : json
}

function union(members: string[]): string {
  return [...new Set(members)].join(' | ')
}

/** An object type: its properties (optional unless `required`), then its other keys' type. */
function objectType(schema: JsonSchema, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  const rest = schema.additionalProperties
  const restType = rest === undefined || rest === true ? 'unknown' : rest === false ? null : typeOf(rest as JsonSchema, `${indent}  `)
  if (Object.keys(properties).length === 0) return restType === null ? '{}' : `{ [key: string]: ${restType} }`
  const inner = `${indent}  `
  const lines = Object.entries(properties).map(([key, property]) => {
    const name = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key)
    return `${jsDoc(property, inner)}${inner}${name}${required.has(key) ? '' : '?'}: ${typeOf(property, inner)}`
  })
  if (restType !== null) lines.push(`${inner}[key: string]: ${restType}`)
  return `{\n${lines.join('\n')}\n${indent}}`
}

function jsDoc(schema: JsonSchema, indent: string): string {
  return typeof schema.description === 'string' ? `${indent}/** ${schema.description.replaceAll('*/', '*\\/')} */\n` : ''
}

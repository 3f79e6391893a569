import type { JsonSchema } from './json-schema.ts'

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

interface OperationRow {
  method: string
  path: string
  summary: string
  permission: string
  success: string
  errors: string
}

function rows(doc: JsonSchema): OperationRow[] {
  const out: OperationRow[] = []
  for (const [path, item] of Object.entries(doc.paths as Record<string, JsonSchema>)) {
    for (const method of METHODS) {
      const op = item[method] as JsonSchema | undefined
      if (op === undefined) continue
      const statuses = Object.keys(op.responses as JsonSchema)
      const success = statuses.filter((s) => s.startsWith('2'))
      const errors = statuses.filter((s) => !s.startsWith('2'))
      const permission = typeof op['x-permission'] === 'string' ? `\`${op['x-permission']}\`` : 'none'
      out.push({ method: method.toUpperCase(), path, summary: String(op.summary ?? ''), permission, success: success.join(', '), errors: errors.join(', ') })
    }
  }
  return out
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ')
}

/**
 * The API reference as Markdown, generated from the OpenAPI document: one table of every
 * operation (method, path, purpose, permission, statuses) and one of every error code with
 * its status. `npm run docs:api` writes it into the README (the whole reference is `openApiReference`).
 */
export function openApiMarkdown(doc: JsonSchema): string {
  const lines = [
    '| Method | Path | Purpose | Permission | Success | Other statuses |',
    '|---|---|---|---|---|---|',
    ...rows(doc).map((r) => `| ${r.method} | \`${r.path}\` | ${escapeCell(r.summary)} | ${r.permission} | ${r.success} | ${r.errors} |`),
    '',
    '| Status | Codes | When |',
    '|---|---|---|',
  ]
  const responses = (doc.components as JsonSchema).responses as Record<string, JsonSchema>
  for (const [name, response] of Object.entries(responses)) {
    const status = /^Error(\d{3})$/.exec(name)?.[1]
    if (status === undefined) continue
    const schema = ((response.content as JsonSchema)['application/json'] as JsonSchema).schema as JsonSchema
    const codes = ((((schema.properties as JsonSchema).error as JsonSchema).properties as JsonSchema).code as JsonSchema).enum as string[]
    lines.push(`| ${status} | ${codes.map((c) => `\`${c}\``).join(', ')} | ${escapeCell(String(response.description ?? ''))} |`)
  }
  return `${lines.join('\n')}\n`
}

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { JsonSchema } from '@frontdesk/http'
import { API_REFERENCE_PATH, ERROR_STATUS, openApiDocument, openApiMarkdown, openApiReference } from '@frontdesk/http'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const doc = openApiDocument()
const paths = Object.keys(doc.paths as JsonSchema)
const schemas = (doc.components as JsonSchema).schemas as Record<string, JsonSchema>

test('the generated API tables list every path, operation and error code of the document', () => {
  const markdown = openApiMarkdown(doc)
  for (const path of paths) assert.ok(markdown.includes(`\`${path}\``), path)
  const operations = Object.values(doc.paths as Record<string, JsonSchema>).reduce((n, item) => n + Object.keys(item).length, 0)
  assert.is(markdown.split('\n').filter((line) => /^\| (GET|POST) \|/.test(line)).length, operations)
  for (const code of Object.keys(ERROR_STATUS)) assert.ok(markdown.includes(`\`${code}\``), code)
})

/** Every dot path of an object schema's own fields (nested inline objects included, `$ref`s not followed). */
function fieldPaths(schema: JsonSchema, prefix = ''): string[] {
  const out: string[] = []
  for (const [name, value] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    out.push(`${prefix}${name}`)
    if (value.type === 'object') out.push(...fieldPaths(value, `${prefix}${name}.`))
  }
  return out
}

test('the full reference has a row for every field of every request and response body, with its limits', () => {
  const reference = openApiReference(doc)
  const rowOf = (field: string) => reference.split('\n').find((line) => line.startsWith(`| \`${field}\` |`))
  const search = (doc.paths as JsonSchema)['/v1/cms/search'] as JsonSchema
  const inquiry = (doc.paths as JsonSchema)['/v1/inquiries'] as JsonSchema
  const bodyOf = (item: JsonSchema) => (((item.post as JsonSchema).requestBody as JsonSchema).content as JsonSchema)['application/json'] as JsonSchema
  for (const body of [bodyOf(search).schema as JsonSchema, bodyOf(inquiry).schema as JsonSchema, ...Object.values(schemas)]) {
    for (const field of fieldPaths(body)) assert.ok(rowOf(field) !== undefined, `no row for ${field}`)
  }
  for (const name of Object.keys(schemas)) assert.ok(reference.includes(`### ${name}\n`), name)
  for (const code of Object.keys(ERROR_STATUS)) assert.ok(reference.includes(`| \`${code}\` | ${ERROR_STATUS[code as keyof typeof ERROR_STATUS]} |`), code)
  // The limits the server enforces are stated where a user looks for them.
  assert.match(rowOf('inquirer_company') ?? '', /\| string or null \| no \| at most 200 characters \|/)
  assert.match(rowOf('inquirer_email') ?? '', /\| yes \| 1–254 characters; format email \|/)
  assert.match(rowOf('size') ?? '', /\| 1–100; default `20` \|/)
  assert.match(rowOf('filter.<custom_name>.in') ?? '', /1–100 items/)
})

test('docs/API.md and the README tables are what `npm run docs:api` generates now (else run it)', () => {
  assert.fixture(readFileSync(join(root, API_REFERENCE_PATH), 'utf8'), openApiReference(doc))
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const block = /<!-- docs:api:begin -->\n([\s\S]*?)<!-- docs:api:end -->/.exec(readme)?.[1]
  assert.fixture(block ?? '(no docs:api block in README.md)', openApiMarkdown(doc))
})

test('`npm run docs:api -- --check` passes on fresh files, fails on a stale one, and the plain run repairs it', () => {
  const copy = mkdtempSync(join(tmpdir(), 'frontdesk-docs-'))
  try {
    for (const file of ['README.md', API_REFERENCE_PATH]) cpSync(join(root, file), join(copy, file))
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'scripts/docs-api.ts', '--root', copy, ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 })
    assert.is(run('--check').status, 0, run('--check').stderr)
    const stale = readFileSync(join(copy, API_REFERENCE_PATH), 'utf8').replace('| `inquirer_company` |', '| `inquirer_firm` |')
    writeFileSync(join(copy, API_REFERENCE_PATH), stale)
    const check = run('--check')
    assert.is(check.status, 1)
    assert.match(check.stderr, /API\.md is stale: run `npm run docs:api`/)
    assert.is(run().status, 0)
    assert.is(readFileSync(join(copy, API_REFERENCE_PATH), 'utf8'), openApiReference(doc))
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
})

test('the README and every package README stand alone: no pointer to the specification files', () => {
  const files = ['README.md', 'DESIGN.md', API_REFERENCE_PATH, ...['search', 'adapter-sqlite', 'adapter-postgres', 'client'].map((p) => `packages/${p}/README.md`)]
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    assert.not.match(text, /SPEC\.md|CONTRACT|\.\.\/shared|shared\/spec/, file)
  }
})

test.run()

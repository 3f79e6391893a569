import { existsSync, readFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { JsonSchema } from '@frontdesk/http'
import { ERROR_STATUS, openApiDocument, openApiMarkdown } from '@frontdesk/http'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const doc = openApiDocument()
const paths = Object.keys(doc.paths as JsonSchema)

test('the generated API reference lists every path, operation and error code of the document', () => {
  const markdown = openApiMarkdown(doc)
  for (const path of paths) assert.ok(markdown.includes(`\`${path}\``), path)
  const operations = Object.values(doc.paths as Record<string, JsonSchema>).reduce((n, item) => n + Object.keys(item).length, 0)
  assert.is(markdown.split('\n').filter((line) => /^\| (GET|POST) \|/.test(line)).length, operations)
  for (const code of Object.keys(ERROR_STATUS)) assert.ok(markdown.includes(`\`${code}\``), code)
})

test('npm run docs:api prints exactly that reference', () => {
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'scripts/docs-api.ts'], { cwd: root, encoding: 'utf8', timeout: 30_000 })
  assert.is(run.status, 0, run.stderr)
  assert.is(run.stdout, openApiMarkdown(doc))
})

// README.md belongs to the project's lead; until it exists there is nothing to check.
const readme = `${root}README.md`
;(existsSync(readme) ? test : test.skip)('README.md mentions every path of the OpenAPI document', () => {
  const text = readFileSync(readme, 'utf8')
  const missing = paths.filter((path) => !text.includes(path))
  assert.equal(missing, [], 'paths missing from README.md (paste `npm run docs:api` into its API reference)')
})

test.run()

// `npm run docs:api`: writes the API reference generated from the OpenAPI document (the same
// document GET /v1/openapi.json serves) to docs/API.md, and the endpoint and status tables into
// README.md between its `docs:api` markers. `npm run docs:api -- --check` changes nothing and
// exits 1 when either file is not what the document generates (a test runs it). `--root DIR`
// works on the files under DIR instead of the repository's.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { API_REFERENCE_PATH, openApiDocument, openApiMarkdown, openApiReference } from '@frontdesk/http'

const args = process.argv.slice(2)
const check = args.includes('--check')
const rootAt = args.indexOf('--root')
const root = rootAt >= 0 ? (args[rootAt + 1] ?? '.') : fileURLToPath(new URL('..', import.meta.url))
const doc = openApiDocument()
const BEGIN = '<!-- docs:api:begin -->'
const END = '<!-- docs:api:end -->'

const readmePath = join(root, 'README.md')
const readme = readFileSync(readmePath, 'utf8')
const begin = readme.indexOf(BEGIN)
const end = readme.indexOf(END)
if (begin < 0 || end < begin) {
  process.stderr.write(`README.md has no ${BEGIN} … ${END} block for the API tables\n`)
  process.exit(1)
}
const files = [
  { path: join(root, API_REFERENCE_PATH), text: openApiReference(doc) },
  { path: readmePath, text: `${readme.slice(0, begin + BEGIN.length)}\n${openApiMarkdown(doc)}${readme.slice(end)}` },
]
let stale = 0
for (const file of files) {
  const now = existsSync(file.path) ? readFileSync(file.path, 'utf8') : null
  if (now === file.text) continue
  if (check) {
    stale++
    process.stderr.write(`${file.path} is stale: run \`npm run docs:api\`\n`)
  } else {
    mkdirSync(dirname(file.path), { recursive: true })
    writeFileSync(file.path, file.text)
    process.stdout.write(`wrote ${file.path}\n`)
  }
}
process.exit(stale === 0 ? 0 : 1)

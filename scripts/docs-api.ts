// `npm run docs:api`: prints the README's API reference tables, generated from the OpenAPI
// document (the same document GET /v1/openapi.json serves).
import { openApiDocument, openApiMarkdown } from '@frontdesk/http'

process.stdout.write(openApiMarkdown(openApiDocument()))

// `npm run generate:client`: writes the client's response types (packages/client/src/api-types.ts)
// from the OpenAPI document, whose response schemas come from @frontdesk/core's `RESPONSE_BODIES`.
import { writeFileSync } from 'node:fs'
import { openApiDocument, openApiTypes } from '@frontdesk/http'

const target = new URL('../packages/client/src/api-types.ts', import.meta.url)
writeFileSync(target, openApiTypes(openApiDocument()))
console.log(`wrote ${target.pathname}`)

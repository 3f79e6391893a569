import { toJsonSchemaDefs } from '@valibot/to-json-schema'
import { RESPONSE_BODIES } from '@frontdesk/core'
import type { JsonSchema } from './json-schema.ts'

/**
 * The response bodies of `/v1` as JSON Schema (draft 2020-12) for the OpenAPI document's
 * `components.schemas`, converted from core's valibot schemas (`RESPONSE_BODIES`, the one
 * definition of each shape); a shape used inside another is a `$ref` to its component.
 */
export function responseSchemas(): Record<string, JsonSchema> {
  const schemas = toJsonSchemaDefs(RESPONSE_BODIES, {
    target: 'draft-2020-12',
    errorMode: 'throw',
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  })
  // Hint: the converter's type lists the keywords it writes; the document holds them as plain JSON data.
  return schemas as unknown as Record<string, JsonSchema>
}

/** A JSON Schema (draft 2020-12) or OpenAPI 3.1 object, as plain JSON data. */
export type JsonSchema = { [keyword: string]: unknown }

/** The custom-field types of README "Content list". */
export type FieldType = 'text' | 'number' | 'date' | 'boolean' | 'select'

/** A value of a custom field: text, select and date are strings, number a number, boolean a boolean. */
export type FieldValue = string | number | boolean

/** A custom-field definition of a category. */
export interface FieldDefinition {
  id: string
  /** `^[a-z][a-z0-9_]{0,62}$`: the key in `content` and `custom_<name>` in search. */
  name: string
  type: FieldType
  /** Allowed values; present for `select` only. */
  options?: string[]
  required: boolean
}

/** A content category as stored. */
export interface CategoryRecord {
  tenant_id: string
  id: string
  /** Unique per tenant. */
  code: string
  name: string
  description: string
  sort: number
  active: boolean
  fields: FieldDefinition[]
  created_at: string
  updated_at: string
}

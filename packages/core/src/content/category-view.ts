import type { CategoryRecord, FieldType } from '../model/category.ts'

/** An item of `GET /v1/cms/categories` (SPEC.md "Category"). */
export interface CategoryView {
  id: string
  code: string
  name: string
  description: string
  sort: number
}

/** A custom-field definition as `GET /v1/cms/categories/{id}` shows it. */
export interface FieldView {
  id: string
  name: string
  type: FieldType
  /** Present for `select` only. */
  options?: string[]
  required: boolean
}

/** `GET /v1/cms/categories/{id}`: the category and its custom-field definitions. */
export interface CategoryDetail extends CategoryView {
  fields: FieldView[]
}

/** The list view of a category. */
export function toCategoryView(category: CategoryRecord): CategoryView {
  return { id: category.id, code: category.code, name: category.name, description: category.description, sort: category.sort }
}

/** The detail view of a category, fields in their defined order. */
export function toCategoryDetail(category: CategoryRecord): CategoryDetail {
  return {
    ...toCategoryView(category),
    fields: category.fields.map((field): FieldView =>
      field.type === 'select'
        ? { id: field.id, name: field.name, type: field.type, options: [...(field.options ?? [])], required: field.required }
        : { id: field.id, name: field.name, type: field.type, required: field.required },
    ),
  }
}

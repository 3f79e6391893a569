import type * as v from 'valibot'
import type { CategoryRecord } from '../model/category.ts'
import type { CategoryDetailSchema, CategorySchema, FieldDefinitionSchema } from '../response/response-bodies.ts'

/** An item of `GET /v1/cms/categories` (docs/API.md "Category"); see `CategorySchema`. */
export type CategoryView = v.InferOutput<typeof CategorySchema>

/** A custom-field definition as `GET /v1/cms/categories/{id}` shows it; see `FieldDefinitionSchema`. */
export type FieldView = v.InferOutput<typeof FieldDefinitionSchema>

/** `GET /v1/cms/categories/{id}`: the category and its custom-field definitions; see `CategoryDetailSchema`. */
export type CategoryDetail = v.InferOutput<typeof CategoryDetailSchema>

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

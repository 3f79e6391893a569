import type { CategoryRecord, FieldDefinition, FieldValue } from '../model/category.ts'
import { stripHtml } from './strip-html.ts'

/**
 * The fields search looks in (README "Search") and their weights — the title weighs most — in the
 * order an engine takes their texts from `searchedTexts`. Every engine scores with these.
 */
export const FIELD_BOOST = { title: 4, summary: 2, body: 1, tags: 2, custom: 1.5 } as const

/** A searched field (see `FIELD_BOOST`). */
export type SearchedField = keyof typeof FIELD_BOOST

/** The searched fields, in `FIELD_BOOST` order. */
export const SEARCHED_FIELDS = Object.keys(FIELD_BOOST) as SearchedField[]

/** Whether a custom field's values are searched: those of text and select fields are (numbers, booleans and dates are not). */
export function isSearchedField(field: FieldDefinition): boolean {
  return field.type === 'text' || field.type === 'select'
}

/**
 * The texts of an item a phrase may lie in (core's `hasPhrase`), each apart: its title,
 * summary, body with the HTML stripped, each tag name, and each searched custom field's value
 * (as `searchedTexts` takes them).
 */
export function phraseTexts(
  title: string,
  summary: string,
  body: string,
  tags: readonly string[],
  fields: Readonly<Record<string, FieldValue>>,
  category: Pick<CategoryRecord, 'fields'> | undefined,
): string[] {
  return [title, summary, stripHtml(body), ...tags, ...searchedFieldValues(fields, category)]
}

/**
 * The text of each searched field of an item, in `SEARCHED_FIELDS` order: its title, its
 * summary, its body with the HTML stripped, its tag names (one a line), and the values of its
 * category's searched custom fields (one a line, in the category's field order). `category`
 * is the item's (`undefined`: no custom text).
 */
export function searchedTexts(
  title: string,
  summary: string,
  body: string,
  tags: readonly string[],
  fields: Readonly<Record<string, FieldValue>>,
  category: Pick<CategoryRecord, 'fields'> | undefined,
): string[] {
  return [title, summary, stripHtml(body), tags.join('\n'), searchedFieldValues(fields, category).join('\n')]
}

/** The values of an item's searched custom fields, in its category's field order. */
function searchedFieldValues(fields: Readonly<Record<string, FieldValue>>, category: Pick<CategoryRecord, 'fields'> | undefined): string[] {
  const values: string[] = []
  for (const field of category?.fields ?? []) {
    if (!isSearchedField(field)) continue
    const value = Object.hasOwn(fields, field.id) ? fields[field.id] : undefined
    if (typeof value === 'string') values.push(value)
  }
  return values
}

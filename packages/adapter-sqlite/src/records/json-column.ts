import type { JsonValue } from '@frontdesk/core'

/** Reads a JSON text column written by this adapter. */
export function parseJson(text: string): JsonValue {
  return JSON.parse(text) as JsonValue
}

/** SQLite's 0/1 as a boolean. */
export function toBoolean(value: number): boolean {
  return value !== 0
}

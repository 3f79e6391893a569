import * as v from 'valibot'
import { invalidInput } from '../admin/invalid-input.ts'
import { issuesToDetails } from '../validation/issues.ts'
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../validation/storable-text.ts'
import type { ImportRecord } from './import-record.ts'
import { ImportRecordSchema } from './import-record.ts'

/**
 * Checks one import record's shape (and that every store can hold its texts); throws a `UsageError` naming `location`, every invalid
 * field and why (e.g. `line 12: slug: must be …`).
 */
export function parseImportRecord(record: unknown, location: string): ImportRecord {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw invalidInput(location, [{ field: 'record', message: 'must be a JSON object' }])
  }
  const unstorable = unstorableTextPath(record, '')
  if (unstorable !== null) throw invalidInput(location, [{ field: unstorable, message: UNSTORABLE_TEXT_MESSAGE }])
  const parsed = v.safeParse(ImportRecordSchema, record)
  if (!parsed.success) {
    const details = issuesToDetails(parsed.issues, 'record').map((d) =>
      // Hint: valibot words an unknown key of a strict object as "Expected never".
      d.message.startsWith('Invalid key:') ? { field: d.field, message: 'is not a known field' } : d,
    )
    throw invalidInput(location, details)
  }
  return parsed.output
}

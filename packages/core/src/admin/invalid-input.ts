import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { UsageError } from '../errors/frontdesk-error.ts'

/**
 * A `UsageError` whose one-line message says where and what: `<where>: <field>: <reason>; …`
 * (an operator reads it on a terminal), with the same `details` for programs.
 */
export function invalidInput(where: string, details: ErrorDetail[]): UsageError {
  const text = details.map((d) => `${d.field}: ${d.message}`).join('; ')
  return new UsageError(`${where}: ${text}`, { details })
}

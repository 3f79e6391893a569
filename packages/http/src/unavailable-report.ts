import { StorageUnavailableError } from '@frontdesk/core'

/** What is known of the request a storage failure refused. */
export interface RefusedRequest {
  requestId: string
  method: string
  url: string
}

/** Receives every request refused with 503 because storage failed (busy, full disk, I/O error). */
export type UnavailableReporter = (error: StorageUnavailableError, request: RefusedRequest) => void

/** The default reporter writes at most one line per this many milliseconds (then counts). */
export const UNAVAILABLE_LINE_INTERVAL_MS = 10_000

/**
 * The default `onUnavailable`: one line on stderr naming the driver's cause (`SQLITE_FULL:
 * database or disk is full`), so an operator sees *why* the access log shows 503s. A full
 * disk fails every request, so lines are limited to one per `UNAVAILABLE_LINE_INTERVAL_MS`;
 * the next line says how many refusals went unreported in between.
 */
export function createUnavailableLog(write: (line: string) => void = (line) => void process.stderr.write(line), now: () => number = Date.now): UnavailableReporter {
  let lastAt = -Infinity
  let unreported = 0
  return (error, request) => {
    const at = now()
    if (at - lastAt < UNAVAILABLE_LINE_INTERVAL_MS) {
      unreported++
      return
    }
    const more = unreported === 0 ? '' : ` (${unreported} more since the last line)`
    lastAt = at
    unreported = 0
    write(`frontdesk: storage unavailable, answered 503 to ${request.method} ${request.url.split('?')[0]} (request ${request.requestId}): ${causeOf(error)}${more}\n`)
  }
}

/** The driver's code and message behind a `StorageUnavailableError`, else its own message. */
export function causeOf(error: StorageUnavailableError): string {
  const cause = error.cause
  if (typeof cause !== 'object' || cause === null) return error.message
  const code = 'code' in cause && typeof cause.code === 'string' ? `${cause.code}: ` : ''
  const message = cause instanceof Error ? cause.message : error.message
  return `${code}${message}`.replace(/\s+/g, ' ').slice(0, 300)
}

/** Whether `error` is a storage failure to report (see `UnavailableReporter`). */
export function isUnavailable(error: unknown): error is StorageUnavailableError {
  return error instanceof StorageUnavailableError
}

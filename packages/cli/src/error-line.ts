import { CommanderError } from 'commander'
import { FrontdeskError, StorageUnavailableError, ValidationError } from '@frontdesk/core'

/**
 * The one-line message of an error, as the CLI prints it. Frontdesk errors say what was wrong
 * (a `ValidationError` with its details); commander's usage errors lose their `error: ` prefix; anything else is
 * unexpected and is named without a stack, SQL or path.
 */
export function errorLine(error: unknown): string {
  if (error instanceof FrontdeskError) {
    // Hint: a UsageError's message is already complete; a ValidationError says what only in its details.
    const details = error instanceof ValidationError ? (error.details ?? []) : []
    const text = details.length === 0 ? error.message : `${error.message}: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`
    // Hint: storage failing (a full disk, an I/O error, a database gone) is named by its driver's code, so that the operator knows which.
    const cause = error instanceof StorageUnavailableError ? driverCause(error.cause) : null
    return oneLine(cause === null ? text : `${text} (${cause})`)
  }
  if (error instanceof CommanderError) return oneLine(error.message.replace(/^error: /, ''))
  if (isSystemError(error)) return oneLine(systemMessage(error))
  return 'unexpected error (set FRONTDESK_DEBUG=1 for details)'
}

/** `CODE: message` of a driver's error (SQLite's `SQLITE_FULL: database or disk is full`, PostgreSQL's or a socket's), else `null`. */
function driverCause(cause: unknown): string | null {
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined
  if (!(cause instanceof Error) || typeof code !== 'string') return null
  const message = cause.message.split('\n')[0] ?? ''
  return message === '' || message.startsWith(code) ? code : `${code}: ${message}`
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim()
}

interface SystemError {
  code: string
  syscall?: string
  path?: string
}

function isSystemError(error: unknown): error is SystemError {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string'
}

/** File errors the operator can act on (a missing import file, an unwritable --out). */
function systemMessage(error: SystemError): string {
  const what = error.path === undefined ? '' : `${error.path}: `
  switch (error.code) {
    case 'ENOENT':
      return `${what}no such file or directory`
    case 'EACCES':
    case 'EPERM':
      return `${what}permission denied`
    case 'EISDIR':
      return `${what}is a directory`
    case 'ENOTDIR':
      return `${what}not a directory`
    default:
      return `unexpected error ${error.code} (set FRONTDESK_DEBUG=1 for details)`
  }
}

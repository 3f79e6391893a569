import type { BaseIssue } from 'valibot'
import { getDotPath } from 'valibot'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { ValidationError } from '../errors/frontdesk-error.ts'

/**
 * Turns valibot issues into `details`: one entry per invalid field (its first issue), named by
 * its dot path as the caller sent it; issues of the whole input are reported on `fallback`.
 */
export function issuesToDetails(issues: readonly BaseIssue<unknown>[], fallback = 'body'): ErrorDetail[] {
  const seen = new Set<string>()
  const details: ErrorDetail[] = []
  for (const issue of issues) {
    const field = getDotPath(issue) ?? issueKeyPath(issue) ?? fallback
    if (seen.has(field)) continue
    seen.add(field)
    details.push({ field, message: issue.message })
  }
  return details
}

function issueKeyPath(issue: BaseIssue<unknown>): string | null {
  // Hint: getDotPath gives up on paths through non-string keys; keep what is printable.
  const keys = issue.path?.map((item) => String(item.key)).filter((key) => key !== 'undefined')
  return keys && keys.length > 0 ? keys.join('.') : null
}

/** A `ValidationError` from valibot issues. */
export function validationErrorFrom(issues: readonly BaseIssue<unknown>[], fallback = 'body'): ValidationError {
  return new ValidationError(issuesToDetails(issues, fallback))
}

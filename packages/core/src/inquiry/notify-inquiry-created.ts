import type { FrontdeskHooks } from '../app/hooks.ts'
import type { InquiryRecord } from '../model/inquiry.ts'

/**
 * Calls `hooks.onInquiryCreated` for a committed inquiry, off the reply path: the call is
 * scheduled on a later turn of the event loop (so even a hook that blocks synchronously runs
 * after the reply is on its way), nothing waits for it, and whatever it throws or rejects
 * with goes to `hooks.onHookError` (an error of that one is swallowed: there is nowhere left
 * to report it). The hook gets its own copy of the record.
 *
 * Returns a promise that settles when the hook has finished, for tests and graceful shutdown;
 * it never rejects.
 */
export function notifyInquiryCreated(hooks: FrontdeskHooks, inquiry: InquiryRecord): Promise<void> {
  const hook = hooks.onInquiryCreated
  if (hook === undefined) return Promise.resolve()
  const copy = { ...inquiry }
  return new Promise<void>((resolve) => {
    setTimeout(() => {
      Promise.resolve()
        .then(() => hook(copy))
        .then(
          () => resolve(),
          (error: unknown) => {
            reportHookError(hooks, error)
            resolve()
          },
        )
    }, 0)
  })
}

function reportHookError(hooks: FrontdeskHooks, error: unknown): void {
  try {
    hooks.onHookError?.(error, 'onInquiryCreated')
  } catch {
    // Hint: the error reporter itself failed; the inquiry is committed and must not be disturbed.
  }
}

import type { InquiryRecord } from '../model/inquiry.ts'

/** Callbacks an embedding service passes to `createFrontdesk`. */
export interface FrontdeskHooks {
  /**
   * Called after an inquiry is committed (never for an idempotent replay), e.g. to notify
   * staff. It runs after the reply is decided: a hook that throws or rejects is reported to
   * `onHookError` and never fails nor loses the inquiry.
   */
  onInquiryCreated?: (inquiry: InquiryRecord) => void | Promise<void>
  /** Receives errors thrown by hooks. Default: ignore. */
  onHookError?: (error: unknown, hook: string) => void
}

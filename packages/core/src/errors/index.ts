export type { ErrorCode } from './error-code.ts'
export * from './frontdesk-error.ts'

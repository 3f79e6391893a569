export type * from './api-types.ts'
export * from './frontdesk-api-error.ts'
export * from './frontdesk-client.ts'
export type { RetryOptions } from './retry-policy.ts'

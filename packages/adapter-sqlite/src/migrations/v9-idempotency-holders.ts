/**
 * Schema version 9: an in-flight idempotency claim names its holder (a token of the request),
 * so that only that request renews its lease (`claimed_at`), completes or releases it, and a
 * holder whose claim was taken over stores nothing. Claims made before have none: they are
 * taken over once their lease runs out.
 */
export const V9_IDEMPOTENCY_HOLDERS = `
ALTER TABLE idempotency_keys ADD COLUMN holder TEXT;
`

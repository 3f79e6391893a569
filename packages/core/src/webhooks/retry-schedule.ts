/**
 * The pauses before each retry of an event (README "Webhooks"), after Svix's and Stripe's:
 * 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h — 11 attempts over ~3 days.
 * Each pause is spread by ±20 % (`jitter`), so that endpoints that failed together are not
 * retried together. After the last attempt the event is given up and the next one is tried.
 */
export const RETRY_PAUSES_MS: readonly number[] = [5_000, 60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 72_000_000]

/** An endpoint failing for this long (every attempt, since its last success) is disabled. */
export const DISABLE_AFTER_MS = 5 * 86_400_000

/** The pause before attempt `attempt + 1` after `attempt` failed (1-based), or `null` when it was the last. */
export function retryPause(attempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_PAUSES_MS[attempt - 1]
  if (base === undefined) return null
  return Math.round(base * (0.8 + 0.4 * random()))
}

/** Where core reads the time: injected so tests can move it (scheduled publishing, expiry). */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
}

/** The system clock. */
export const systemClock: Clock = { now: () => Date.now() }

/** ISO 8601 UTC of a clock reading. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString()
}

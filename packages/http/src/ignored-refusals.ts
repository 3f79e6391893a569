/** Remembers, per connection, until when a client was told to wait (see `createRefusalMemory`). */
export interface RefusalMemory {
  /**
   * A request on `connection` was refused with `Retry-After: retryAfterSeconds`. Returns whether
   * the connection is to be closed after this answer: it is when the request came although an
   * earlier answer on the same connection had told the client to wait and the wait is not over.
   */
  refused(connection: object, retryAfterSeconds: number): boolean
}

/**
 * Tracks 429 answers per connection. A client that honours `Retry-After` keeps its kept-alive
 * connection; one that keeps sending regardless loses it after its second refusal, so that it
 * cannot hold a connection (and a turn of the event loop on every pass) while ignoring the limit.
 */
export function createRefusalMemory(now: () => number = Date.now): RefusalMemory {
  const limitedUntil = new WeakMap<object, number>()
  return {
    refused(connection, retryAfterSeconds) {
      const at = now()
      const until = limitedUntil.get(connection)
      if (until !== undefined && at < until) return true
      limitedUntil.set(connection, at + retryAfterSeconds * 1000)
      return false
    },
  }
}

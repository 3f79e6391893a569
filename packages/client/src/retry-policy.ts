/** How the client retries (see `FrontdeskClientOptions.retry`). */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2 (three attempts in all); 0 turns retrying off. */
  retries?: number
  /** First backoff after a network error or a 5xx without `Retry-After`, in ms; doubles each retry, with jitter. Default 250. */
  baseDelayMs?: number
  /**
   * Longest wait before a retry, in ms. A `Retry-After` longer than this is not waited for:
   * the 429/503 is thrown at once, so a caller is never stuck for minutes. Default 10 000.
   */
  maxDelayMs?: number
}

/** The retry settings with defaults applied. */
export interface RetryPolicy {
  retries: number
  baseDelayMs: number
  maxDelayMs: number
}

/** Applies the defaults; negative or non-finite numbers are refused. */
export function retryPolicyOf(options: RetryOptions = {}): RetryPolicy {
  const policy = { retries: options.retries ?? 2, baseDelayMs: options.baseDelayMs ?? 250, maxDelayMs: options.maxDelayMs ?? 10_000 }
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`retry.${name} must be a number ≥ 0`)
  }
  return policy
}

/** Statuses worth another attempt of a safe (idempotent) request: rate limited, or a server/proxy briefly unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504])

/**
 * The wait before retry number `retry` (0-based): the server's `Retry-After` when it gave
 * one, else exponential backoff with "equal jitter" (half fixed, half random) so that many
 * clients do not retry in step. `null` when the wait would exceed `maxDelayMs`.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, retryAfterSeconds: number | null, random: () => number = Math.random): number | null {
  if (retryAfterSeconds !== null) {
    const wait = retryAfterSeconds * 1000
    return wait > policy.maxDelayMs ? null : wait
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

import { FrontdeskError } from '../../errors/frontdesk-error.ts'

/** What a call answered: its reply (or record) as JSON, or the error it was refused with. */
export type Outcome = { ok: true; json: string; value: unknown } | { ok: false; error: string }

/**
 * Runs `call` and records what it answered. A refusal (a `FrontdeskError`) is an answer, kept
 * as its class, code, message and details; any other error is a fault and fails the check at
 * once (with its stack).
 */
export async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    const value = await call()
    return { ok: true, json: JSON.stringify(value), value }
  } catch (error) {
    if (!(error instanceof FrontdeskError)) throw error
    return { ok: false, error: JSON.stringify({ name: error.name, code: error.code, message: error.message, details: error.details ?? null }) }
  }
}

/**
 * The outcome with its value's keys in one order: records read back from two stores may hold
 * the same fields in another order (reply bodies, whose bytes count, are compared as they are).
 */
export function keyOrderFree(result: Outcome): Outcome {
  return result.ok ? { ...result, json: JSON.stringify(sortKeys(result.value)) } : result
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]))
}

/** An outcome as a failure message shows it. */
export function shown(result: Outcome): string {
  return result.ok ? result.json : `refused: ${result.error}`
}

/** How long a cached public reply may be served (README "Content list"). */
const CACHE_MS = 60_000

/**
 * What the response cache may answer, exactly (README "Content list"): a public list, detail or
 * category reply may be the one given to the same request — the same tenant, operation and
 * normalised query — when it was first asked, as long as nothing was written to the tenant
 * since (its revision is the same) and that was less than 60 s ago; otherwise it is the
 * reference's answer now, which the cache then holds. Refusals are never cached. A product
 * that keeps no cache (its memos off) always answers as the reference does now.
 */
export class ReplyCacheModel {
  readonly #caches: boolean
  readonly #entries = new Map<string, { result: Outcome; at: number; revision: number }>()

  constructor(caches: boolean) {
    this.#caches = caches
  }

  /** The answer the product must give to the request `key` at `now`, under the tenant's `revision`. */
  async expect(key: string, revision: number, now: number, fresh: () => Promise<Outcome>): Promise<Outcome> {
    const entry = this.#caches ? this.#entries.get(key) : undefined
    if (entry !== undefined && entry.revision === revision && now < entry.at + CACHE_MS) return entry.result
    const result = await fresh()
    if (this.#caches && result.ok) this.#entries.set(key, { result, at: now, revision })
    return result
  }
}

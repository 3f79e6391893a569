import { randomBytes } from 'node:crypto'
import type { InstanceSecretStore } from '../port/store.ts'

/** The instance secret that keys the HMAC of list cursors. */
export const CURSOR_SECRET = 'cursor-hmac'

/**
 * The installation's secrets (see `Store.instanceSecret`), each read — or, the very first
 * time, created with 32 random bytes — once per process and then kept in memory: they never
 * change. A failed read is forgotten, so that the next request tries again. With `memo`
 * false, each one is read from the store every time.
 */
export class InstanceSecrets {
  readonly #store: InstanceSecretStore
  readonly #known = new Map<string, Promise<string>>()
  readonly #memo: boolean

  constructor(store: InstanceSecretStore, memo = true) {
    this.#store = store
    this.#memo = memo
  }

  /** The secret named `name`. */
  get(name: string): Promise<string> {
    if (!this.#memo) return this.#store.instanceSecret(name, randomBytes(32).toString('base64url'))
    let secret = this.#known.get(name)
    if (secret === undefined) {
      secret = this.#store.instanceSecret(name, randomBytes(32).toString('base64url'))
      secret.catch(() => this.#known.delete(name))
      this.#known.set(name, secret)
    }
    return secret
  }
}

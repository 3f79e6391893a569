/**
 * A first-come, first-served lock for async work: in-process writers queue behind it so that
 * only one of them holds the writer connection (and its open transaction) at a time.
 */
export class AsyncMutex {
  #tail: Promise<void> = Promise.resolve()

  /** Runs `work` once every earlier holder has finished, and releases the lock when it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    let release!: () => void
    const previous = this.#tail
    this.#tail = new Promise<void>((resolve) => {
      release = resolve
    })
    await previous
    try {
      return await work()
    } finally {
      release()
    }
  }
}

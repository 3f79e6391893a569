/** The `q` quantile (0–1) of ascending `sorted` values (nearest rank); 0 for none. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[index] ?? 0
}

/** Milliseconds since `start` (a `performance.now()` value). */
export function since(start: number): number {
  return performance.now() - start
}

/** Runs `work` `times` times one after another and returns the sorted durations in ms. */
export async function timeEach(times: number, work: (i: number) => Promise<unknown>): Promise<number[]> {
  const durations: number[] = []
  for (let i = 0; i < times; i++) {
    const start = performance.now()
    await work(i)
    durations.push(performance.now() - start)
  }
  return durations.sort((a, b) => a - b)
}

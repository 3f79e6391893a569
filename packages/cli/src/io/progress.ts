import { groupDigits } from '@frontdesk/core'
import type { CliOutput } from '../env.ts'

/** How often the progress line is redrawn. */
const INTERVAL_MS = 250

/**
 * A progress line (`imported 12,000 records (9,800/s)`) redrawn in place on `out`, only when
 * `out` is a terminal; elsewhere (a pipe, a log file, CI) it writes nothing at all.
 */
export function progressLine(out: CliOutput, verb: string, now: () => number = Date.now): { update(done: number): void; done(): void } {
  if (out.isTTY !== true) return { update: () => {}, done: () => {} }
  const started = now()
  let last = started
  let shown = false
  return {
    update(done) {
      const t = now()
      if (t - last < INTERVAL_MS) return
      last = t
      const rate = Math.round(done / Math.max((t - started) / 1000, 0.001))
      out.write(`\r\u001b[K${verb} ${groupDigits(done)} records (${groupDigits(rate)}/s)`)
      shown = true
    },
    done() {
      if (shown) out.write('\r\u001b[K')
    },
  }
}

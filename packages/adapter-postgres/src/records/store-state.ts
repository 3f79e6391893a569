import { CHANNEL } from '../connection/state-watch.ts'

/**
 * The end of a statement whose first part, CTE `written`, wrote rows that memoised reads depend
 * on (keys, tokens): moves `frontdesk_state.generation` (and notifies the other processes) only
 * when `written` has rows, and returns the new generation (no row when nothing was written).
 * One statement, so the write and its bookkeeping commit together.
 */
export function BUMP_GENERATION(written: string): string {
  return `UPDATE frontdesk_state SET generation = generation + 1 WHERE EXISTS (SELECT 1 FROM ${written})
    RETURNING generation, pg_notify('${CHANNEL}', '')`
}

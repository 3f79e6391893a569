/** The environment variable that switches every memo of the engine off when it is `1` (see `SearchEngineOptions.memo`). */
export const NO_MEMO_VARIABLE = 'FRONTDESK_NO_MEMO'

/**
 * Whether the engine keeps its memos when its options do not say: yes, unless
 * `FRONTDESK_NO_MEMO=1` — one switch for a whole test run, which then proves that every memo
 * changes speed only.
 */
export function memoByDefault(): boolean {
  return process.env[NO_MEMO_VARIABLE] !== '1'
}

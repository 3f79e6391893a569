/**
 * The environment variable that switches every memo and cache of frontdesk off when it is
 * `1`: core's response cache and search memos, the stores' remembered reads and the search
 * engine's remembered searches (each also has its own `memo` option, which wins).
 */
export const NO_MEMO_VARIABLE = 'FRONTDESK_NO_MEMO'

/**
 * Whether memos and caches are kept when an option does not say: yes, unless
 * `FRONTDESK_NO_MEMO=1` — one switch for a whole test run, which then proves that every memo
 * changes speed only. Read when a component is made, never per request.
 */
export function memoByDefault(): boolean {
  return globalThis.process?.env?.[NO_MEMO_VARIABLE] !== '1'
}

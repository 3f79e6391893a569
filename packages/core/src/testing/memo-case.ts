import type { Callback, Test } from 'uvu'
import { memoByDefault, NO_MEMO_VARIABLE } from '../app/memo-switch.ts'
import { skipCase } from './skip-case.ts'

/** Why a memo case does not run with memos off. */
export const MEMO_OFF_REASON = `it checks what a memo or cache keeps, and ${NO_MEMO_VARIABLE}=1 switched them off`

/**
 * Registers a case that checks a memo's or a cache's own effect (a reply found again is the
 * same object, a stamp is written once for a burst): it runs while memos are on (the
 * default), and is skipped, saying why, under `FRONTDESK_NO_MEMO=1` — the run in which every
 * other case shows that the memos change speed only.
 */
export function memoCase<T>(s: Test<T>, title: string, handler: Callback<T>): void {
  if (memoByDefault()) s(`${title} (needs the memos)`, handler)
  else skipCase(s, 'memos off', title, MEMO_OFF_REASON)
}

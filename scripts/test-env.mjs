// How `npm test` (scripts/test.mjs) runs uvu: its environment and flags, shared with the test
// that checks them (test/test-environment.test.ts).

/**
 * The environment of every step: no colours (uvu's summary is parsed), said by NO_COLOR only.
 * With FORCE_COLOR beside it, every Node process the tests start would warn that one
 * overrides the other.
 */
export function testEnv(env) {
  const { FORCE_COLOR: _force, ...rest } = env
  return { ...rest, NO_COLOR: '1' }
}

/** uvu's flags: without --no-color uvu sets FORCE_COLOR=1 for the processes it starts. */
export const UVU_FLAGS = ['--no-color']

/**
 * Node's flags for a uvu run, before uvu's script: a crash of the test process (which uvu
 * cannot catch) then says which file and test were running (uvu-crash-report.mjs).
 */
export const UVU_PRELOAD = ['--import', new URL('./uvu-crash-report.mjs', import.meta.url).href]

/** The variable that switches every memo and cache off (`memoByDefault` of @frontdesk/core); `npm test` runs the tests with and without. */
export const NO_MEMO = 'FRONTDESK_NO_MEMO'

/**
 * The skipped tests of a uvu run, from its output: uvu's `Skipped: N`, and how many each
 * printed reason covers — `  <suite>: N skipped: <reason>` (a suite whose service is missing,
 * `unlessMissing` of @frontdesk/core/testing) and `  <name>: skipped "<case>": <reason>` (one
 * case, `skipCase`). Skips that printed no reason are counted under `null`. A run that ended
 * before its summary (a crash, a time limit) skipped nothing, as it passed nothing.
 */
export function skipsOf(output) {
  const summary = /Skipped:\s+(\d+)/.exec(output)
  const byReason = new Map()
  if (summary === null) return { total: 0, byReason }
  const total = Number(summary[1])
  let stated = 0
  for (const [, count, reason] of output.matchAll(/^ {2}.+?: (?:(\d+) skipped|skipped ".*"): (.+)$/gm)) {
    const n = count === undefined ? 1 : Number(count)
    byReason.set(reason, (byReason.get(reason) ?? 0) + n)
    stated += n
  }
  if (total > stated) byReason.set(null, total - stated)
  return { total, byReason }
}

/** One line for the end of `npm test`: how many tests were skipped, and why, the most common reason first. */
export function skipSummary(byReason) {
  const counts = [...byReason].sort(([, a], [, b]) => b - a)
  const total = counts.reduce((sum, [, n]) => sum + n, 0)
  const why = counts.map(([reason, n]) => `${n} ${reason === null ? '(reason not printed)' : `because ${reason}`}`)
  return `Skipped ${total}: ${why.join('; ')}`
}

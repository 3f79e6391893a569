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

/** The variable that switches every memo and cache off (`memoByDefault` of @frontdesk/core); `npm test` runs the tests with and without. */
export const NO_MEMO = 'FRONTDESK_NO_MEMO'

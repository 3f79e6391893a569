/** CI's fixed seed of the differential checks: a failure replays the same way; `FRONTDESK_FUZZ_SEED` picks another. */
export const DEFAULT_FUZZ_SEED = 20_251_125

/**
 * The runs and seed of a property-based check: `FRONTDESK_FUZZ_RUNS` (else `runs`, what CI
 * runs) and `FRONTDESK_FUZZ_SEED` (else `DEFAULT_FUZZ_SEED`). `npm run fuzz` sets both to run
 * many more by hand. `FRONTDESK_FUZZ_PATH` (the `path` a failure report gives, with its seed)
 * replays that one failure at once.
 */
export function fuzzOptions(runs: number): { runs: number; seed: number; path?: string } {
  const path = globalThis.process?.env?.['FRONTDESK_FUZZ_PATH']
  return {
    runs: numberFromEnv('FRONTDESK_FUZZ_RUNS') ?? runs,
    seed: numberFromEnv('FRONTDESK_FUZZ_SEED') ?? DEFAULT_FUZZ_SEED,
    ...(path === undefined || path === '' ? {} : { path }),
  }
}

function numberFromEnv(name: string): number | undefined {
  const value = globalThis.process?.env?.[name]
  return value === undefined || !/^\d+$/.test(value) ? undefined : Number(value)
}

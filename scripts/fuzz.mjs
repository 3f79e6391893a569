// `npm run fuzz`: the property-based tests with many more cases than CI runs.
//
//   npm run fuzz [-- --runs N] [-- --seed S]              both groups below
//   npm run fuzz -- --only hardening [--runs 20000]        the endpoint fuzzer, tenant isolation, storage faults (CI: ~1,200 cases)
//   npm run fuzz -- --only differential [--runs 500]       every memo, cache and index against its obviously-right
//                                                          reference over random sequences (CI: 15-60 runs each)
//
// A failure prints its seed (and, for the differential tests, the shrunk sequence and its path:
// FRONTDESK_FUZZ_SEED=S FRONTDESK_FUZZ_PATH=P on that one test file replays it at once).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { withTestPostgres } from './test-postgres.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Each group: its default runs and the test files (directory, uvu pattern) it runs. */
const GROUPS = {
  hardening: { runs: '20000', files: [['packages/http/test', 'hardening-(fuzz|tenant-isolation|faults)\\.test\\.ts$']] },
  differential: {
    runs: '500',
    files: [
      ['packages/core/src', '(frontdesk\\.differential|testing/search/differential|search/found-items(\\.sequences)?|search/frequency-sketch)\\.test\\.ts$'],
      ['packages/search/src', 'tenant-index\\.sequences\\.test\\.ts$'],
      ['packages/adapter-sqlite/src', '(list-page\\.sequences|sqlite-store)\\.test\\.ts$'],
      ['packages/adapter-postgres/src', 'postgres-store\\.test\\.ts$'],
      ['packages/http/test', '(product-differential|response-cache-etags|on-postgres)\\.test\\.ts$'],
      ['packages/cli/src', 'import-sequences\\.test\\.ts$'],
    ],
  },
}

const { values } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' }, only: { type: 'string' } } })
const names = values.only === undefined ? Object.keys(GROUPS) : [values.only]
if (names.some((name) => !(name in GROUPS)) || (values.runs !== undefined && !/^\d+$/.test(values.runs))) {
  console.error('usage: npm run fuzz -- [--only hardening|differential] [--runs N] [--seed S]')
  process.exit(2)
}

// Hint: without --seed every run explores new cases (the tests' own default is CI's fixed seed); the seed is printed to replay a failure.
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31))
console.log(`── seed ${seed}${values.seed === undefined ? ' (random; --seed replays it)' : ''}`)

let status = 0
await withTestPostgres(() => {
  for (const name of names) {
    const group = GROUPS[name]
    const env = {
      ...process.env,
      FRONTDESK_FUZZ_RUNS: values.runs ?? group.runs,
      FRONTDESK_FUZZ_SEED: seed,
    }
    for (const [dir, pattern] of group.files) {
      console.log(`\n── ${name}: ${dir} ${pattern} (${env.FRONTDESK_FUZZ_RUNS} runs)`)
      const result = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'node_modules/uvu/bin.js', dir, pattern], { cwd: root, env, stdio: 'inherit' })
      if (result.status !== 0) status = result.status ?? 1
    }
  }
})
process.exit(status)

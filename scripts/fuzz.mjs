// `npm run fuzz [-- --runs N] [-- --seed S]`: the property-based hardening tests (the endpoint
// fuzzer, tenant isolation, storage faults) with many more cases than CI runs (default 20,000;
// CI: ~1,200). A failure prints its seed; pass it back with --seed to replay it.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = fileURLToPath(new URL('..', import.meta.url))
const { values } = parseArgs({ options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string' } } })
if (!/^\d+$/.test(values.runs)) {
  console.error('usage: npm run fuzz -- [--runs 20000] [--seed S]')
  process.exit(2)
}
const env = { ...process.env, FRONTDESK_FUZZ_RUNS: values.runs, ...(values.seed === undefined ? {} : { FRONTDESK_FUZZ_SEED: values.seed }) }
const result = spawnSync(
  process.execPath,
  ['--conditions=source', '--import', 'tsx', 'node_modules/uvu/bin.js', 'packages/http/test', 'hardening-(fuzz|tenant-isolation|faults)\\.test\\.ts$'],
  { cwd: root, env, stdio: 'inherit' },
)
process.exit(result.status ?? 1)

import { parseArgs } from 'node:util'

/** Options of `npm run bench -- [options]`. */
export interface BenchOptions {
  /** Articles to seed. Default 20,000 (about 2–3 minutes in all); issue 8's targets are for 100,000. */
  items: number
  /** Measured seconds per HTTP scenario. Default 5. */
  duration: number
  /** Warm-up seconds before each measurement (not counted). Default: 2 (1 when duration < 5). */
  warmup: number
  /** Concurrent keep-alive connections. Default 50. */
  connections: number
  /** Searches (and list pages) timed per in-process class. Default 200. */
  runs: number
  /** Whole-run limit in seconds; children are killed and partial results written when it passes. */
  timeout: number
  /** Keep the temporary directory (database, certificate, profiles). */
  keep: boolean
  /** Run the server with `--cpu-prof`; the profile lands in the temporary directory (implies --keep). */
  cpuProf: boolean
  /** Only these HTTP scenarios (ids), e.g. `search_mix,detail_miss`. Default: all. */
  only: string[] | null
  /** Let the server write its access log (JSON lines on stdout, drained by the benchmark), as `serve` does by default. */
  accessLog: boolean
  /** Skip `npm run build` (the server runs the bundled CLI, which must then be current). */
  build: boolean
}

const HELP = `npm run bench -- [--items N] [--duration S] [--warmup S] [--connections N] [--runs N]
                 [--timeout S] [--keep] [--cpu-prof] [--only id,id] [--no-build] [--no-access-log]`

/** Parses the command line; throws with the usage text on anything unknown. */
export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      items: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      runs: { type: 'string' },
      timeout: { type: 'string' },
      keep: { type: 'boolean' },
      'cpu-prof': { type: 'boolean' },
      only: { type: 'string' },
      'no-build': { type: 'boolean' },
      'no-access-log': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  })
  if (values.help === true) throw new Error(HELP)
  const number = (name: string, text: string | undefined, fallback: number, min: number, max: number): number => {
    if (text === undefined) return fallback
    const n = Number(text)
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}\n${HELP}`)
    return n
  }
  const items = Math.round(number('items', values.items, 20_000, 100, 1_000_000))
  const duration = number('duration', values.duration, 5, 1, 120)
  const warmup = number('warmup', values.warmup, duration < 5 ? 1 : 2, 0, 60)
  const connections = Math.round(number('connections', values.connections, 50, 1, 1000))
  const runs = Math.round(number('runs', values.runs, 200, 10, 100_000))
  const defaultTimeout = Math.round(300 + 0.006 * items + 20 * (duration + warmup + 8))
  const timeout = number('timeout', values.timeout, defaultTimeout, 10, 24 * 3600)
  const cpuProf = values['cpu-prof'] === true
  return {
    items,
    duration,
    warmup,
    connections,
    runs,
    timeout,
    keep: values.keep === true || cpuProf,
    cpuProf,
    only: values.only === undefined ? null : values.only.split(',').map((s) => s.trim()).filter((s) => s !== ''),
    build: values['no-build'] !== true,
    accessLog: values['no-access-log'] !== true,
  }
}

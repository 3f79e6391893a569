import { parseArgs } from 'node:util'

/** Options of `npm run bench -- [options]`. */
export interface BenchOptions {
  /** Articles to seed. Default 20,000 (about 6 minutes in all); the targets are for 100,000. */
  items: number
  /** Measured seconds per HTTP scenario. Default 5. */
  duration: number
  /** Warm-up seconds before each measurement (not counted). Default: 2 (1 when duration < 5). */
  warmup: number
  /** Concurrent keep-alive connections. Default 50. */
  connections: number
  /** New searches timed per in-process query class (and list pages per page). Default 200. */
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
  /** Build the SQLite FTS5 reference and time it beside the engine (`--no-fts`: not). */
  fts: boolean
  /** Further `frontdesk serve` flags, e.g. `--serve-flags "--max-connections 0"`. */
  serveFlags: string[]
  /** Node flags of the server process, e.g. `--node-flags "--max-old-space-size=512"`. */
  nodeFlags: string[]
  /** Server processes (`frontdesk serve --workers N`). Default 1 (one process, no supervisor). */
  workers: number
  /**
   * The store: `sqlite` (a file in the temporary directory, the default) or `postgres` (a
   * throwaway PostgreSQL started as `npm test` does, with fsync on; or the server of a
   * `postgres://` URL given instead, whose user may create databases), or `both`: the run on
   * SQLite, then on a throwaway PostgreSQL, and their figures side by side (`compare.ts`).
   */
  store: 'sqlite' | 'postgres' | 'both'
  /** With `--store postgres://…`: the server to use instead of a throwaway one. */
  postgresUrl: string | null
  /**
   * Time small imports (one item created, edited, deleted; 1,000 edited; an unchanged file)
   * and a start after them, each a fresh `frontdesk import` process, at the end of the run
   * (`--no-small-imports`: not).
   */
  smallImports: boolean
  /**
   * Time the small imports on a tenant of this many items of its own (a SQLite file seeded
   * for them, e.g. 1,000,000: about an hour and 3 GB, not for CI) instead of the run's.
   */
  importItems: number | null
  /**
   * After the small imports, leave the state of this many one-item imports (see
   * `oneItemImports`) and time a start's first search again (`--imports-before-start N`,
   * e.g. 10,000 with `--import-items 1000000`: not for CI). `0`: not.
   */
  importsBeforeStart: number
  /**
   * Measure webhook delivery (`bench/webhooks.ts`) with a serve process of its own after the
   * scenarios (`--no-webhooks`: not). `--only webhooks` (or some of `WEBHOOK_MEASURES`) runs them.
   */
  webhooks: boolean
}

const HELP = `npm run bench -- [--items N] [--duration S] [--warmup S] [--connections N] [--runs N]
                 [--timeout S] [--keep] [--cpu-prof] [--only id,id] [--no-build] [--no-access-log]
                 [--no-fts] [--serve-flags "FLAGS"] [--node-flags "FLAGS"] [--workers N] [--store sqlite|postgres|postgres://URL|both]
                 [--no-small-imports] [--import-items N] [--imports-before-start N] [--no-webhooks]`

/** Load runs of a full run: 2 ceilings, 2 reply ceilings, 3 floors, 22 scenarios and 2 of them again, ~5 of the webhook measures. */
const LOADS = 36

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
      'no-fts': { type: 'boolean' },
      'serve-flags': { type: 'string' },
      'node-flags': { type: 'string' },
      workers: { type: 'string' },
      store: { type: 'string' },
      'no-small-imports': { type: 'boolean' },
      'import-items': { type: 'string' },
      'imports-before-start': { type: 'string' },
      'no-webhooks': { type: 'boolean' },
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
  // Build, seeding, the FTS5 reference and in-process timing grow with the items and runs; each load costs its seconds and ~5 s of setting up.
  const defaultTimeout = Math.round(300 + 0.012 * items + 0.3 * runs + LOADS * (duration + warmup + 5))
  const timeout = number('timeout', values.timeout, defaultTimeout, 10, 24 * 3600)
  const cpuProf = values['cpu-prof'] === true
  const store = values.store ?? 'sqlite'
  const postgresUrl = /^postgres(ql)?:\/\//i.test(store) ? store : null
  if (store !== 'sqlite' && store !== 'postgres' && store !== 'both' && postgresUrl === null) throw new Error(`--store must be sqlite, postgres, both or a postgres:// URL\n${HELP}`)
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
    fts: values['no-fts'] !== true,
    serveFlags: (values['serve-flags'] ?? '').split(' ').filter((flag) => flag !== ''),
    nodeFlags: (values['node-flags'] ?? '').split(' ').filter((flag) => flag !== ''),
    workers: Math.round(number('workers', values.workers, 1, 1, 64)),
    store: store === 'sqlite' || store === 'both' ? store : 'postgres',
    postgresUrl,
    smallImports: values['no-small-imports'] !== true,
    webhooks: values['no-webhooks'] !== true,
    importItems: values['import-items'] === undefined ? null : Math.round(number('import-items', values['import-items'], items, 100, 10_000_000)),
    importsBeforeStart: Math.round(number('imports-before-start', values['imports-before-start'], 0, 0, 1_000_000)),
  }
}

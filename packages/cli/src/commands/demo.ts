import type { Command } from 'commander'
import { Option } from 'commander'
import { resolve } from 'node:path'
import { createApiKey, createFrontdesk, createTenant, importRecords, listApiKeys } from '@frontdesk/core'
import type { CliEnv } from '../env.ts'
import { DEMO_TENANT } from '../demo/demo-catalog.ts'
import { demoExamples, shellQuote } from '../demo/demo-examples.ts'
import { demoRecords } from '../demo/demo-records.ts'
import type { RunningServer } from './serve.ts'
import { defaultSearchDir, displayDb, isPostgresUrl, openStore } from '../session.ts'
import { applyGcHeadroom, DEFAULT_GC_HEADROOM, DEFAULT_PORT, devCertDir, parsePort, startServer, untilStopped } from './serve.ts'

/** The demo database when `--db` is not given (never `$FRONTDESK_DB`: the demo must not seed a real database by accident). */
export const DEMO_DB = './frontdesk-demo.db'
/** The name of the demo's API keys, one per run (earlier ones are kept, so their curl lines keep working). */
const DEMO_KEY_NAME = 'demo'

/** Options of `frontdesk demo`. */
export interface DemoOptions {
  /** Database file or PostgreSQL URL (default `./frontdesk-demo.db`). */
  db?: string
  /** First port to try (the next 20 are tried when busy; 0 = any free port). Default 8443. */
  port?: number
  /** Directory of the search index snapshots (default `<database file>.search`). */
  searchDir?: string
}

/** A running demo: the server, the key it printed and the certificate clients trust. */
export interface RunningDemo extends RunningServer {
  key: string
  /** Keys of earlier demo runs on this database, which still work. */
  earlierKeys: number
  /** The development CA's certificate, which clients trust. */
  caPath: string
}

/**
 * Seeds the demo site (tenant `demo`, English and Japanese content, inquiry categories) into
 * the database, idempotently, creates a fresh key with `cms:*` and `inquiry:create` (the keys
 * of earlier runs are kept: the curl lines they printed keep working) and serves HTTPS on
 * 127.0.0.1 with the development certificate.
 */
export async function startDemo(options: DemoOptions, cwd: string): Promise<RunningDemo> {
  const dbPath = demoDb(options, cwd)
  const { key, earlierKeys } = await seedDemo(dbPath)
  const { ensureDevCert } = await import('@frontdesk/http')
  const cert = await ensureDevCert(devCertDir(dbPath, cwd))
  // Hint: the demo serves as `serve` does, with its memory bound too (see ServeOptions.gcHeadroom).
  applyGcHeadroom(DEFAULT_GC_HEADROOM)
  const running = await startServer(dbPath, { tls: { cert: cert.cert, key: cert.key } }, {
    host: '127.0.0.1',
    port: options.port ?? DEFAULT_PORT,
    portFallback: true,
    searchDir: options.searchDir === undefined ? defaultSearchDir(dbPath, cwd) : resolve(cwd, options.searchDir),
  })
  return { ...running, key, earlierKeys, caPath: cert.caPath }
}

/** The demo's database: `options.db` (a file resolved against `cwd`, or a PostgreSQL URL), else `./frontdesk-demo.db`. */
function demoDb(options: DemoOptions, cwd: string): string {
  const db = options.db ?? DEMO_DB
  return isPostgresUrl(db) ? db : resolve(cwd, db)
}

async function seedDemo(dbPath: string): Promise<{ key: string; earlierKeys: number }> {
  const store = await openStore(dbPath)
  try {
    const ctx = createFrontdesk({ store }).context
    if ((await store.getTenantByCode(DEMO_TENANT)) === null) await createTenant(ctx, { code: DEMO_TENANT, name: 'Example Corp (demo)' })
    await importRecords(ctx, { tenantCode: DEMO_TENANT, records: demoRecords(ctx.clock.now()) })
    const earlierKeys = (await listApiKeys(ctx, DEMO_TENANT)).filter((k) => k.name === DEMO_KEY_NAME && k.disabled_at === null).length
    const created = await createApiKey(ctx, { tenantCode: DEMO_TENANT, name: DEMO_KEY_NAME, permissions: ['cms:*', 'inquiry:create'] })
    return { key: created.key, earlierKeys }
  } finally {
    await store.close()
  }
}

/** The banner `demo` prints: where it runs, the key (shown once) and copy-paste curl lines. */
export function demoBanner(demo: RunningDemo, dbPath: string): string {
  const lines = [
    '',
    `frontdesk demo: serving ${demo.url}/v1/`,
    `  database     ${dbPath} (tenant "${DEMO_TENANT}")`,
    `  trust        ${demo.caPath} (the local CA that signed the localhost certificate:`,
    '               curl --cacert, NODE_EXTRA_CA_CERTS, deno --cert, or your system\'s trust store)',
    `  API key      ${demo.key}`,
    '               (permissions cms:* and inquiry:create; shown only now, a new one is made on each run)',
    ...(demo.earlierKeys === 0
      ? []
      : [`               (${demo.earlierKeys === 1 ? 'the key of an earlier run still works' : `the ${demo.earlierKeys} keys of earlier runs still work`}: frontdesk --db ${shellQuote(dbPath)} key list --tenant ${DEMO_TENANT})`]),
    '',
    'Try it:',
    '',
  ]
  for (const example of demoExamples()) {
    lines.push(`# ${example.title}`)
    const parts = ['curl', '--cacert', shellQuote(demo.caPath), '-H', shellQuote(`X-API-Key: ${demo.key}`)]
    if (example.body !== undefined) {
      parts.push('-H', shellQuote('Content-Type: application/json'), '-d', shellQuote(JSON.stringify(example.body)))
    }
    parts.push(shellQuote(`${demo.url}${example.path}`))
    lines.push(parts.join(' '), '')
  }
  lines.push('Press Ctrl+C to stop.', '')
  return lines.join('\n')
}

/** `frontdesk demo`: seeds, serves and prints the banner, until SIGINT/SIGTERM (or `signal`). */
export async function demo(options: DemoOptions, env: CliEnv, signal?: AbortSignal): Promise<void> {
  const running = await startDemo(options, env.cwd)
  // Hint: listening for SIGINT/SIGTERM before the banner, so a stop right after it is a clean one.
  const stopped = untilStopped(signal)
  const asked = options.port ?? DEFAULT_PORT
  if (asked !== 0 && running.port !== asked) {
    env.stdout.write(`frontdesk demo: port ${asked} is in use, so the demo serves on port ${running.port} (--port P tries P first)\n`)
  }
  env.stdout.write(demoBanner(running, displayDb(demoDb(options, env.cwd))))
  await stopped
  env.stderr.write('frontdesk: stopping the demo\n')
  await running.stop()
}

/** The end of `frontdesk demo --help`: the global option it honours, and what it leaves behind. */
export const DEMO_HELP = `
Global option:
  --db <database>  the demo database, a file or a postgres:// URL (default ${DEMO_DB};
                   $FRONTDESK_DB is never used, so that the demo cannot seed a real
                   database by accident)

The certificate for localhost and the local CA that signed it are kept in .frontdesk/ in
the database's directory (for PostgreSQL, in .frontdesk/ of the working directory); clients
trust the CA, .frontdesk/dev-ca.pem. Each run adds a new
API key; the keys of earlier runs keep working.
`

/** Registers `demo`. */
export function register(program: Command, env: CliEnv): void {
  program
    .command('demo')
    .description(`seed a demo site into ${DEMO_DB} (or --db), serve it over HTTPS and print a key and curl examples`)
    .addOption(new Option('--port <port>', 'first port to try (the next ones are tried when busy)').default(DEFAULT_PORT).argParser(parsePort))
    .addHelpText('after', DEMO_HELP)
    .action((options: { port: number }, command: Command) => {
      // Hint: only an explicit --db counts; $FRONTDESK_DB may point at a real database.
      const { db, searchDir } = command.optsWithGlobals() as { db?: unknown; searchDir?: unknown }
      return demo({
        ...options,
        ...(typeof db === 'string' && db !== '' ? { db } : {}),
        ...(typeof searchDir === 'string' && searchDir !== '' ? { searchDir } : {}),
      }, env)
    })
}

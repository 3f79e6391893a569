/**
 * Settings of the benchmark's throwaway PostgreSQL besides fsync on: what a production server
 * would have rather than the tests' small 64 MB cache. A WAL allowance large enough that a
 * 100,000-item import does not force checkpoints halfway (PostgreSQL's default 1 GB does).
 * Commits stay durable: fsync on, and every frontdesk connection commits with
 * synchronous_commit on.
 */
export const BENCH_SERVER_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '256MB',
  max_wal_size: '4GB',
  checkpoint_timeout: '15min',
}

/** A throwaway server (scripts/test-postgres.mjs) as the benchmark runs it. */
export interface BenchPostgres {
  /** A superuser's URL (database `postgres`). */
  url: string
  pid: number
  /** Its directory (the log is `postgres.log` there). */
  dir: string
  stop(): Promise<void>
}

/**
 * Starts a throwaway PostgreSQL on 127.0.0.1 with fsync on and `BENCH_SERVER_SETTINGS`;
 * with `statements`, pg_stat_statements is loaded (created in each database that asks for it);
 * `settings` are more server settings.
 */
export async function startBenchPostgres(statements = false, settings: Record<string, string> = {}): Promise<BenchPostgres> {
  // Hint: a path in a variable, so that no type checker follows it out of bench/.
  const script = new URL('../scripts/test-postgres.mjs', import.meta.url).href
  const { startTestPostgres } = (await import(script)) as {
    startTestPostgres: (options: { fsync: boolean; settings: Record<string, string> }) => Promise<BenchPostgres>
  }
  return startTestPostgres({ fsync: true, settings: { ...BENCH_SERVER_SETTINGS, ...(statements ? { shared_preload_libraries: 'pg_stat_statements' } : {}), ...settings } })
}

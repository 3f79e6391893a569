import type { Command } from 'commander'
import { Option } from 'commander'
import { UsageError } from '@frontdesk/core'
import type { SnapshotAfterImport } from '@frontdesk/search'
import type { CliEnv } from '../env.ts'
import { refreshSearchSnapshot } from '../search-refresh.ts'
import type { Session } from '../session.ts'
import { runWithSession } from '../session.ts'
import { snapshotLimitsOf } from './import.ts'

/** Options of `search-snapshot`. */
export interface SearchSnapshotOptions {
  tenant: string
  /** Leave at once when another process refreshes the tenant: how `import` starts this command in the background. */
  ifIdle?: boolean
}

/** What `search-snapshot` prints for each outcome. */
const SAID: Record<SnapshotAfterImport | 'busy', string> = {
  behind: 'up to date: a start restores it and replays the few changes after it',
  delta: 'up to date: the items changed since it were written beside it',
  saved: 'written again',
  unwritable: 'could not be written',
  busy: 'being brought up to date by another process',
}

/**
 * `frontdesk search-snapshot --tenant CODE`: brings the tenant's search snapshot up to date now,
 * so that the next `serve` start restores it: what `import` starts in the background when an
 * import leaves it too far behind. Waits for a refresh already running first.
 */
export async function searchSnapshot(session: Pick<Session, 'ctx' | 'searchDir'>, options: SearchSnapshotOptions, env: CliEnv): Promise<SnapshotAfterImport | 'busy'> {
  const tenant = await session.ctx.store.getTenantByCode(options.tenant)
  if (tenant === null) throw new UsageError(`Unknown tenant: ${options.tenant}`)
  const outcome = await refreshSearchSnapshot(session.ctx, tenant.id, session.searchDir, snapshotLimitsOf(env), options.ifIdle === true ? { ifIdle: true } : {})
  if (outcome === 'unwritable') throw new UsageError(`The search snapshot of tenant ${options.tenant} could not be written to ${session.searchDir}`)
  if (outcome === 'busy' && options.ifIdle !== true) throw new UsageError(`The search snapshot of tenant ${options.tenant} is still being brought up to date by another process after 10 minutes`)
  env.stdout.write(`Search snapshot of tenant ${options.tenant}: ${SAID[outcome]}\n`)
  return outcome
}

/** Registers `search-snapshot`. */
export function register(program: Command, env: CliEnv): void {
  program
    .command('search-snapshot')
    .description("bring a tenant's search snapshot up to date now (import starts this in the background when needed)")
    .requiredOption('--tenant <code>', 'tenant code')
    .addOption(new Option('--if-idle', 'leave at once when another process is already at it').hideHelp())
    .action((options: SearchSnapshotOptions, command: Command) => runWithSession(command, env, (s) => searchSnapshot(s, options, env)))
}

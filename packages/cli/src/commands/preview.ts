import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
import type { Context, PreviewTarget, PreviewTokenRecord } from '@frontdesk/core'
import { createPreviewToken, formatDuration, MAX_PREVIEW_TTL_MS, parseDuration, revokePreviewToken, UsageError } from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { printJson } from '../output.ts'
import { runWithSession } from '../session.ts'

/** Options of `preview create`. */
export interface PreviewCreateOptions {
  tenant: string
  /** A content item's id or slug. */
  content?: string
  /** A category's id or code. */
  category?: string
  /** Lifetime in ms (from `--ttl`); default 1 h. */
  ttl?: number
  json?: boolean
}

/**
 * `frontdesk preview create --tenant CODE (--content ID | --category ID) [--ttl 1h]`: prints
 * the token once. `--json` prints exactly `{"id","token","expires_at"}`.
 */
export async function previewCreate(ctx: Context, options: PreviewCreateOptions, out: CliOutput): Promise<{ record: PreviewTokenRecord; token: string }> {
  const target = targetOf(options)
  const created = await createPreviewToken(ctx, { tenantCode: options.tenant, target, ...(options.ttl === undefined ? {} : { ttlMs: options.ttl }) })
  const { record, token } = created
  if (options.json) {
    printJson(out, { id: record.id, token, expires_at: record.expires_at })
  } else {
    out.write(`Created preview token ${record.id} for ${record.target.kind} ${record.target.id}, valid until ${record.expires_at}\n\n  ${token}\n\n`)
    out.write('Send it as the X-Preview-Token header (or ?preview_token=) with a cms:read key. It is shown only once.\n')
  }
  return created
}

/** `frontdesk preview revoke <token-id>`. */
export async function previewRevoke(ctx: Context, id: string, options: { json?: boolean }, out: CliOutput): Promise<PreviewTokenRecord> {
  const record = await revokePreviewToken(ctx, id)
  if (options.json) printJson(out, { id: record.id, target: record.target, expires_at: record.expires_at, revoked_at: record.revoked_at })
  else out.write(`Revoked preview token ${record.id}\n`)
  return record
}

/** Parses `--ttl`: a number with a unit, `30s`, `15m`, `1h`, `7d`, at most 7 days. */
export function parseTtl(text: string): number {
  // Hint: `0s` has the right form; saying "a number with a unit" back would not help.
  if (/^0+[smhd]$/.test(text)) throw new InvalidArgumentError(`must be at least 1s (at most ${formatDuration(MAX_PREVIEW_TTL_MS)})`)
  const ms = parseDuration(text)
  if (ms === null) throw new InvalidArgumentError('must be a whole number with a unit: 30s, 15m, 1h, 7d')
  if (ms > MAX_PREVIEW_TTL_MS) throw new InvalidArgumentError(`must be at most ${formatDuration(MAX_PREVIEW_TTL_MS)}`)
  return ms
}

function targetOf(options: PreviewCreateOptions): PreviewTarget {
  if (options.content !== undefined && options.category === undefined) return { kind: 'content', id: options.content }
  if (options.category !== undefined && options.content === undefined) return { kind: 'category', id: options.category }
  throw new UsageError('Give exactly one of --content ID and --category ID')
}

/** Registers `preview create|revoke`. */
export function register(program: Command, env: CliEnv): void {
  const preview = program.command('preview').description('create and revoke preview tokens for unpublished content')
  preview
    .command('create')
    .description('create a preview token for one content item or one category and print it once')
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--content <id>', 'the content item (id or slug) the token opens')
    .option('--category <id>', 'the category (id or code) whose items the token opens')
    .option('--ttl <duration>', 'lifetime: 30s, 15m, 1h, 7d (default 1h, at most 7d)', parseTtl)
    .option('--json', 'print {"id","token","expires_at"}')
    .action((options: PreviewCreateOptions, command: Command) => runWithSession(command, env, (s) => previewCreate(s.ctx, options, env.stdout)))
  preview
    .command('revoke <token-id>')
    .description('revoke a preview token (takes effect for the next request in every server process)')
    .option('--json', 'print the revoked token as JSON')
    .action((id: string, options: { json?: boolean }, command: Command) => runWithSession(command, env, (s) => previewRevoke(s.ctx, id, options, env.stdout)))
}

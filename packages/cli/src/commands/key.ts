import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
import type { ApiKeyRecord, Context } from '@frontdesk/core'
import { createApiKey, deleteApiKey, listApiKeys, setApiKeyDisabled } from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { printJson, printTable } from '../output.ts'
import { runWithSession } from '../session.ts'

/** Options of `key create`. */
export interface KeyCreateOptions {
  tenant: string
  name: string
  /** Comma-separated, e.g. `cms:read,cms:search`. */
  permissions?: string
  personal?: boolean
  rateLimit?: number
  json?: boolean
}

/** A key as listings show it: everything but the hash. */
export function publicKey(record: ApiKeyRecord) {
  return {
    id: record.id,
    name: record.name,
    kind: record.kind,
    permissions: record.permissions,
    prefix: record.prefix,
    rate_limit: record.rate_limit,
    created_at: record.created_at,
    last_used_at: record.last_used_at,
    disabled_at: record.disabled_at,
  }
}

/**
 * `frontdesk key create`: prints the key once. `--json` prints exactly
 * `{"id","key","name","permissions","kind","created_at"}`.
 */
export async function keyCreate(ctx: Context, options: KeyCreateOptions, out: CliOutput): Promise<{ record: ApiKeyRecord; key: string }> {
  const created = await createApiKey(ctx, {
    tenantCode: options.tenant,
    name: options.name,
    permissions: options.permissions === undefined ? [] : options.permissions.split(','),
    personal: options.personal === true,
    rateLimit: options.rateLimit ?? null,
  })
  const { record, key } = created
  if (options.json) {
    printJson(out, { id: record.id, key, name: record.name, permissions: record.permissions, kind: record.kind, created_at: record.created_at })
  } else {
    const grants = record.kind === 'personal' ? 'personal key, no permissions' : record.permissions.join(', ')
    out.write(`Created key ${record.id} "${record.name}" for tenant ${options.tenant} (${grants})\n\n  ${key}\n\n`)
    out.write('Warning: this key is shown only once and cannot be recovered. Store it in a secret manager now.\n')
  }
  return created
}

/** `frontdesk key list --tenant CODE`: JSON prints one array (no hashes). */
export async function keyList(ctx: Context, options: { tenant: string; json?: boolean }, out: CliOutput): Promise<ApiKeyRecord[]> {
  const keys = await listApiKeys(ctx, options.tenant)
  if (options.json) {
    printJson(out, keys.map(publicKey))
  } else {
    printTable(
      out,
      ['ID', 'NAME', 'KIND', 'PERMISSIONS', 'PREFIX', 'RATE LIMIT', 'STATUS', 'CREATED', 'LAST USED'],
      keys.map((k) => [
        k.id,
        k.name,
        k.kind,
        k.permissions.join(',') || '-',
        k.prefix,
        k.rate_limit === null ? 'default' : k.rate_limit === 0 ? 'unlimited' : `${k.rate_limit}/s`,
        k.disabled_at === null ? 'active' : 'disabled',
        k.created_at,
        k.last_used_at ?? 'never',
      ]),
      '(no keys)',
    )
  }
  return keys
}

/** What `key disable|enable|delete` do. */
export type KeyAction = 'disable' | 'enable' | 'delete'

/** `frontdesk key disable|enable|delete <key-id>`. */
export async function keyChange(ctx: Context, action: KeyAction, keyId: string, options: { json?: boolean }, out: CliOutput): Promise<ApiKeyRecord> {
  const record = action === 'delete' ? await deleteApiKey(ctx, keyId) : await setApiKeyDisabled(ctx, keyId, action === 'disable')
  if (options.json) printJson(out, action === 'delete' ? { ...publicKey(record), deleted: true } : publicKey(record))
  else out.write(`${action === 'delete' ? 'Deleted' : action === 'disable' ? 'Disabled' : 'Enabled'} key ${record.id} "${record.name}"\n`)
  return record
}

/**
 * Parses `--permissions`: names separated by commas, white space around a name ignored
 * (`"cms:read, cms:search"`), none empty (`cms:read,,` is a typo, not one permission). Names
 * separated otherwise (spaces, `;`) are refused as such, not as one unknown name.
 */
export function parsePermissionList(text: string): string {
  const names = text.split(',').map((name) => name.trim())
  if (names.some((name) => name === '')) {
    throw new InvalidArgumentError('has an empty entry: separate permission names with single commas, e.g. cms:read,cms:search')
  }
  const joined = names.find((name) => /[\s;|]/.test(name))
  if (joined !== undefined) {
    throw new InvalidArgumentError(`has "${joined}": separate permission names with commas (spaces after a comma are fine), e.g. "cms:read, cms:search"`)
  }
  return names.join(',')
}

/** Parses `--rate-limit`: an integer ≥ 0. */
export function parseRateLimit(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new InvalidArgumentError('must be an integer ≥ 0 (requests per second, 0 = unlimited)')
  }
  return Number(text)
}

/** Registers `key create|list|disable|enable|delete`. */
export function register(program: Command, env: CliEnv): void {
  const key = program.command('key').description('create, list, disable, enable and delete API keys')
  key
    .command('create')
    .description('create an API key and print it once')
    .requiredOption('--tenant <code>', 'tenant code')
    .requiredOption('--name <name>', 'a label for the key')
    .option('--permissions <list>', `comma-separated: cms:read, cms:search, cms:*, inquiry:create`, parsePermissionList)
    .option('--personal', 'a personal key (fdp_…), which holds no permission of this API')
    .option('--rate-limit <n>', 'requests per second (0 = unlimited; default 100)', parseRateLimit)
    .option('--json', 'print {"id","key","name","permissions","kind","created_at"}')
    .action((options: KeyCreateOptions, command: Command) => runWithSession(command, env, (s) => keyCreate(s.ctx, options, env.stdout)))
  key
    .command('list')
    .description("list a tenant's keys")
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--json', 'print the keys as a JSON array')
    .action((options: { tenant: string; json?: boolean }, command: Command) => runWithSession(command, env, (s) => keyList(s.ctx, options, env.stdout)))
  for (const action of ['disable', 'enable', 'delete'] as const) {
    key
      .command(`${action} <key-id>`)
      .description(`${action} a key (takes effect for the next request in every server process)`)
      .option('--json', 'print the key as JSON')
      .action((keyId: string, options: { json?: boolean }, command: Command) =>
        runWithSession(command, env, (s) => keyChange(s.ctx, action, keyId, options, env.stdout)))
  }
}

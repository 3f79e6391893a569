import type { Command } from 'commander'
import type { Context, Tenant } from '@frontdesk/core'
import { createTenant, listTenants } from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { printJson, printTable } from '../output.ts'
import { runWithSession } from '../session.ts'

/** `frontdesk tenant create <code> [--name NAME] [--json]`. */
export async function tenantCreate(ctx: Context, options: { code: string; name?: string; json?: boolean }, out: CliOutput): Promise<Tenant> {
  const tenant = await createTenant(ctx, { code: options.code, ...(options.name === undefined ? {} : { name: options.name }) })
  if (options.json) printJson(out, tenant)
  else out.write(`Created tenant ${tenant.code} (${tenant.name}), id ${tenant.id}\n`)
  return tenant
}

/** `frontdesk tenant list [--json]`: JSON prints one array. */
export async function tenantList(ctx: Context, options: { json?: boolean }, out: CliOutput): Promise<Tenant[]> {
  const tenants = await listTenants(ctx)
  if (options.json) printJson(out, tenants)
  else printTable(out, ['CODE', 'NAME', 'ID', 'CREATED'], tenants.map((t) => [t.code, t.name, t.id, t.created_at]), '(no tenants)')
  return tenants
}

/** Registers `tenant create` and `tenant list`. */
export function register(program: Command, env: CliEnv): void {
  const tenant = program.command('tenant').description('create and list tenants')
  tenant
    .command('create <code>')
    .description('create a tenant (code: a-z, 0-9 and -, at most 63 characters)')
    .option('--name <name>', 'display name (default: the code)')
    .option('--json', 'print the tenant as JSON')
    .action((code: string, options: { name?: string; json?: boolean }, command: Command) =>
      runWithSession(command, env, (s) => tenantCreate(s.ctx, { ...options, code }, env.stdout)))
  tenant
    .command('list')
    .description('list tenants')
    .option('--json', 'print the tenants as a JSON array')
    .action((options: { json?: boolean }, command: Command) => runWithSession(command, env, (s) => tenantList(s.ctx, options, env.stdout)))
}

import type { Command } from 'commander'
import type { ContentRecord, Context } from '@frontdesk/core'
import { deleteContentItem, setContentStatus } from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { printJson } from '../output.ts'
import { runWithSession } from '../session.ts'
import { refreshAfterChange } from './import.ts'

/** What `content publish|unpublish|delete` do. */
export type ContentAction = 'publish' | 'unpublish' | 'delete'

/** `frontdesk content publish|unpublish|delete <id-or-slug> --tenant CODE`. */
export async function contentChange(
  ctx: Context,
  action: ContentAction,
  idOrSlug: string,
  options: { tenant: string; json?: boolean },
  out: CliOutput,
): Promise<ContentRecord> {
  const item =
    action === 'delete'
      ? await deleteContentItem(ctx, options.tenant, idOrSlug)
      : await setContentStatus(ctx, options.tenant, idOrSlug, action === 'publish' ? 'published' : 'draft')
  const summary = { id: item.id, slug: item.slug, status: item.status, published_at: item.published_at, version: item.version }
  if (options.json) {
    printJson(out, action === 'delete' ? { ...summary, deleted: true } : summary)
  } else if (action === 'delete') {
    out.write(`Deleted ${item.id} (${item.slug})\n`)
  } else {
    const when = item.status === 'published' ? `, published_at ${item.published_at ?? '-'}` : ''
    out.write(`${item.id} (${item.slug}) is ${item.status}${when}, version ${item.version}\n`)
  }
  return item
}

/** Registers `content publish|unpublish|delete`. */
export function register(program: Command, env: CliEnv): void {
  const content = program.command('content').description('publish, unpublish and delete content items')
  const help: Record<ContentAction, string> = {
    publish: 'publish an item (published_at becomes now unless it has one)',
    unpublish: 'turn an item back into a draft',
    delete: 'delete an item',
  }
  for (const action of ['publish', 'unpublish', 'delete'] as const) {
    content
      .command(`${action} <id-or-slug>`)
      .description(help[action])
      .requiredOption('--tenant <code>', 'tenant code')
      .option('--json', 'print the item as JSON')
      .action((idOrSlug: string, options: { tenant: string; json?: boolean }, command: Command) =>
        runWithSession(command, env, async (s) => {
          await contentChange(s.ctx, action, idOrSlug, options, env.stdout)
          await refreshAfterChange(s, options.tenant, env)
        }))
  }
}

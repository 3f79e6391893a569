import type { Context } from '../app/context.ts'
import type { SynonymGroup } from '../search/synonyms.ts'
import { formatSynonymGroup, parseSynonymLines, parseSynonyms } from '../search/synonyms.ts'
import { requireTenant } from './require-tenant.ts'

/** What `setSynonyms` did. */
export interface SynonymsSetSummary {
  tenant: string
  /** Groups now set (lines other than comments and blanks). */
  groups: number
}

/**
 * Replaces a tenant's whole set of synonyms with the groups of `text` (the file format of
 * `parseSynonyms`; an empty text removes them all), in one transaction: a text with any
 * problem throws a `UsageError` naming its line, and nothing changes. Searches of every
 * process use the new set within 1 s (the tenant's revision moves); nothing is indexed again.
 */
export async function setSynonyms(ctx: Context, input: { tenantCode: string; text: string }): Promise<SynonymsSetSummary> {
  const tenant = await requireTenant(ctx, input.tenantCode)
  const groups = parseSynonyms(input.text)
  await ctx.store.transaction((tx) => tx.replaceSynonyms(tenant.id, groups.map(formatSynonymGroup)))
  return { tenant: tenant.code, groups: groups.length }
}

/** A tenant's synonym groups as set, in order (each with its line as `formatSynonymGroup` writes it). */
export async function listSynonyms(ctx: Context, tenantCode: string): Promise<(SynonymGroup & { line: string })[]> {
  const tenant = await requireTenant(ctx, tenantCode)
  return parseSynonymLines(await ctx.store.getSynonyms(tenant.id)).map((group) => ({ ...group, line: formatSynonymGroup(group) }))
}

import type { Sql } from '../connection/sql.ts'

/** The tenant's synonyms, one group a line (`[]`: none). */
export async function selectSynonyms(sql: Sql, tenantId: string): Promise<string[]> {
  return (await sql.rows<{ lines: string[] }>('SELECT lines FROM synonym_sets WHERE tenant_id = $1', [tenantId]))[0]?.lines ?? []
}

/** Replaces the tenant's synonyms (none: the row goes). */
export async function replaceSynonymSet(sql: Sql, tenantId: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) await sql.run('DELETE FROM synonym_sets WHERE tenant_id = $1', [tenantId])
  else await sql.run('INSERT INTO synonym_sets (tenant_id, lines) VALUES ($1, $2) ON CONFLICT (tenant_id) DO UPDATE SET lines = EXCLUDED.lines', [tenantId, [...lines]])
}

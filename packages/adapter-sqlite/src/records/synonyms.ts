import type { Connection } from '../connection/statement-cache.ts'

/** The tenant's synonyms, one group a line (`[]`: none). */
export function selectSynonyms(conn: Connection, tenantId: string): string[] {
  const row = conn.prepare('SELECT lines FROM synonym_sets WHERE tenant_id = ?').get(tenantId) as { lines: string } | undefined
  return row === undefined ? [] : (JSON.parse(row.lines) as string[])
}

/** Replaces the tenant's synonyms (none: the row goes). */
export function replaceSynonymSet(conn: Connection, tenantId: string, lines: readonly string[]): void {
  if (lines.length === 0) conn.prepare('DELETE FROM synonym_sets WHERE tenant_id = ?').run(tenantId)
  else conn.prepare('INSERT INTO synonym_sets (tenant_id, lines) VALUES (?, ?) ON CONFLICT (tenant_id) DO UPDATE SET lines = excluded.lines').run(tenantId, JSON.stringify(lines))
}

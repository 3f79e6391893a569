import type { Connection } from '../connection/statement-cache.ts'

/** The secret stored under `name`, or `null`. */
export function selectInstanceSecret(conn: Connection, name: string): string | null {
  const row = conn.prepare('SELECT value FROM instance_secrets WHERE name = ?').get(name) as { value: string } | undefined
  return row?.value ?? null
}

/**
 * Stores `candidate` under `name` unless a secret is there already, and returns the stored one.
 * Run inside the write lock, so that of two racing processes the first one's candidate wins.
 */
export function claimInstanceSecret(conn: Connection, name: string, candidate: string): string {
  conn.prepare('INSERT INTO instance_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, candidate)
  const stored = selectInstanceSecret(conn, name)
  if (stored === null) throw new Error(`instance secret ${name} was not stored`)
  return stored
}

import type { Sql } from '../connection/sql.ts'

/**
 * The secret stored under `name`, storing `candidate` first when there is none. Under READ
 * COMMITTED a conflicting insert waits for the transaction that inserted the name and then does
 * nothing, so the read after it sees the winner's value: race-free across processes.
 */
export async function instanceSecret(sql: Sql, name: string, candidate: string): Promise<string> {
  const existing = await sql.rows<{ value: string }>('SELECT value FROM instance_secrets WHERE name = $1', [name])
  if (existing[0] !== undefined) return existing[0].value
  await sql.run('INSERT INTO instance_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, candidate])
  const stored = await sql.rows<{ value: string }>('SELECT value FROM instance_secrets WHERE name = $1', [name])
  if (stored[0] === undefined) throw new Error(`The instance secret ${name} could not be stored`)
  return stored[0].value
}

import type { IdempotencyClaim, JsonValue } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

interface IdempotencyRow {
  request_hash: string
  state: 'in_flight' | 'completed'
  response_status: number | null
  response_body: string | null
}

/**
 * Claims `key` atomically across processes with one upsert: a new key is inserted; an existing
 * record is taken over only when it expired or is an in-flight claim gone stale (its process
 * died). When the upsert leaves the record alone (it holds the conflicting row's lock while
 * deciding), the record says what the caller gets. A record released between the two
 * statements is claimed on the next round.
 */
export async function claimKey(
  sql: Sql,
  tenantId: string,
  key: string,
  requestHash: string,
  times: { now: string; expiredBefore: string; staleBefore: string },
): Promise<IdempotencyClaim> {
  for (;;) {
    const claimed = await sql.run(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, state, claimed_at) VALUES ($1, $2, $3, 'in_flight', $4)
       ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, state = 'in_flight',
         claimed_at = EXCLUDED.claimed_at, response_status = NULL, response_body = NULL
       WHERE idempotency_keys.claimed_at < $5 OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.claimed_at < $6)`,
      [tenantId, key, requestHash, times.now, times.expiredBefore, times.staleBefore],
    )
    if (claimed > 0) return { state: 'claimed' }
    const row = (
      await sql.rows<IdempotencyRow>(
        'SELECT request_hash, state, response_status, response_body FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
        [tenantId, key],
      )
    )[0]
    if (row === undefined) continue
    if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
      return { state: 'completed', request_hash: row.request_hash, response: { status: row.response_status, body: JSON.parse(row.response_body) as JsonValue } }
    }
    return { state: 'in_flight' }
  }
}

/** Deletes the tenant's records claimed before `expiredBefore` (they count as absent anyway). */
export async function pruneKeys(sql: Sql, tenantId: string, expiredBefore: string): Promise<void> {
  await sql.run('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND claimed_at < $2', [tenantId, expiredBefore])
}

/** Drops an in-flight claim (a completed record stays). */
export async function releaseKey(sql: Sql, tenantId: string, key: string): Promise<void> {
  await sql.run(`DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND state = 'in_flight'`, [tenantId, key])
}

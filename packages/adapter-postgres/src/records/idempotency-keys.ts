import type { IdempotencyClaim, IdempotencyClaimTerms, JsonValue } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

interface IdempotencyRow {
  request_hash: string
  state: 'in_flight' | 'completed'
  claimed_at: string
  response_status: number | null
  response_body: string | null
}

/**
 * Claims `key` atomically across processes with one upsert: a new key is inserted; an existing
 * record is taken over only when it expired or is an in-flight claim whose lease ran out (its
 * holder died). When the upsert leaves the record alone (it holds the conflicting row's lock while
 * deciding), the record says what the caller gets. A record released between the two
 * statements is claimed on the next round.
 */
export async function claimKey(
  sql: Sql,
  tenantId: string,
  key: string,
  requestHash: string,
  times: IdempotencyClaimTerms,
): Promise<IdempotencyClaim> {
  for (;;) {
    const claimed = await sql.run(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, state, claimed_at, holder) VALUES ($1, $2, $3, 'in_flight', $4, $7)
       ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, state = 'in_flight',
         claimed_at = EXCLUDED.claimed_at, holder = EXCLUDED.holder, response_status = NULL, response_body = NULL
       WHERE idempotency_keys.claimed_at < $5 OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.claimed_at < $6)`,
      [tenantId, key, requestHash, times.now, times.expiredBefore, times.staleBefore, times.holder],
    )
    if (claimed > 0) return { state: 'claimed' }
    const row = (
      await sql.rows<IdempotencyRow>(
        'SELECT request_hash, state, claimed_at, response_status, response_body FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
        [tenantId, key],
      )
    )[0]
    if (row === undefined) continue
    if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
      return { state: 'completed', request_hash: row.request_hash, response: { status: row.response_status, body: JSON.parse(row.response_body) as JsonValue } }
    }
    return { state: 'in_flight', renewed_at: row.claimed_at }
  }
}

/** Deletes the tenant's records claimed before `expiredBefore` (they count as absent anyway). */
export async function pruneKeys(sql: Sql, tenantId: string, expiredBefore: string): Promise<void> {
  await sql.run('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND claimed_at < $2', [tenantId, expiredBefore])
}

/** Renews `holder`'s in-flight claim at `now`; whether it still held it. */
export async function renewKey(sql: Sql, tenantId: string, key: string, holder: string, now: string): Promise<boolean> {
  const renewed = await sql.run(
    `UPDATE idempotency_keys SET claimed_at = $4 WHERE tenant_id = $1 AND key = $2 AND state = 'in_flight' AND holder = $3`,
    [tenantId, key, holder, now],
  )
  return renewed > 0
}

/** Drops `holder`'s in-flight claim (any other record stays). */
export async function releaseKey(sql: Sql, tenantId: string, key: string, holder: string): Promise<void> {
  await sql.run(`DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND state = 'in_flight' AND holder = $3`, [tenantId, key, holder])
}

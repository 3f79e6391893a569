import type { IdempotencyClaim, IdempotencyClaimTerms, StoredResponse } from '@frontdesk/core'
import { idempotencyInProgress } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'
import { parseJson } from './json-column.ts'

interface IdempotencyRow {
  request_hash: string
  state: 'in_flight' | 'completed'
  claimed_at: string
  response_status: number | null
  response_body: string | null
}

/**
 * Claims `key` for a request; the caller runs it inside a writer transaction so that the read
 * and the write are one atomic step across processes. Expired records of the tenant are
 * dropped on the way, which keeps the table to the 24 h window.
 */
export function claimKey(
  conn: Connection,
  tenantId: string,
  key: string,
  requestHash: string,
  times: IdempotencyClaimTerms,
): IdempotencyClaim {
  conn.prepare('DELETE FROM idempotency_keys WHERE tenant_id = ? AND claimed_at < ?').run(tenantId, times.expiredBefore)
  const row = conn
    .prepare('SELECT request_hash, state, claimed_at, response_status, response_body FROM idempotency_keys WHERE tenant_id = ? AND key = ?')
    .get(tenantId, key) as IdempotencyRow | undefined
  if (row !== undefined && row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
    return { state: 'completed', request_hash: row.request_hash, response: { status: row.response_status, body: parseJson(row.response_body) } }
  }
  if (row !== undefined && row.claimed_at >= times.staleBefore) return { state: 'in_flight', renewed_at: row.claimed_at }
  conn
    .prepare(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, state, claimed_at, holder) VALUES (?, ?, ?, 'in_flight', ?, ?)
       ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'in_flight',
         claimed_at = excluded.claimed_at, holder = excluded.holder, response_status = NULL, response_body = NULL`,
    )
    .run(tenantId, key, requestHash, times.now, times.holder)
  return { state: 'claimed' }
}

/**
 * Completes the key's record with the response of its request, which must still hold the
 * in-flight claim; else throws `IDEMPOTENCY_IN_PROGRESS` (the caller's transaction, or
 * savepoint, then stores nothing of the request).
 */
export function completeKey(conn: Connection, tenantId: string, key: string, holder: string, response: StoredResponse): void {
  const { changes } = conn
    .prepare(
      `UPDATE idempotency_keys SET state = 'completed', response_status = ?, response_body = ?
       WHERE tenant_id = ? AND key = ? AND state = 'in_flight' AND holder = ?`,
    )
    .run(response.status, JSON.stringify(response.body), tenantId, key, holder)
  if (changes === 0) throw idempotencyInProgress()
}

/** Renews `holder`'s in-flight claim at `now`; whether it still held it. */
export function renewKey(conn: Connection, tenantId: string, key: string, holder: string, now: string): boolean {
  return (
    conn
      .prepare(`UPDATE idempotency_keys SET claimed_at = ? WHERE tenant_id = ? AND key = ? AND state = 'in_flight' AND holder = ?`)
      .run(now, tenantId, key, holder).changes > 0
  )
}

/** Drops `holder`'s in-flight claim (any other record stays). */
export function releaseKey(conn: Connection, tenantId: string, key: string, holder: string): void {
  conn.prepare(`DELETE FROM idempotency_keys WHERE tenant_id = ? AND key = ? AND state = 'in_flight' AND holder = ?`).run(tenantId, key, holder)
}

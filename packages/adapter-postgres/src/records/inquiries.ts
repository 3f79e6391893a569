import type { InquiryRecord, InquiryStatus, OutboxEvent, StoredResponse } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'
import { eventColumns } from './events.ts'

/** The `inquiries` columns, in the order of `inquiryValues`. */
export const INQUIRY_COLUMNS = [
  'tenant_id', 'id', 'category_code', 'title', 'content', 'priority', 'inquirer_name', 'inquirer_email', 'inquirer_phone',
  'inquirer_company', 'inquirer_department', 'status', 'api_key_id', 'created_at',
] as const

const COLUMNS = INQUIRY_COLUMNS.join(', ')

/** The record's values in the order of `INQUIRY_COLUMNS`. */
export function inquiryValues(r: InquiryRecord): (string | number | null)[] {
  return [
    r.tenant_id, r.id, r.category_code, r.title, r.content, r.priority, r.inquirer_name, r.inquirer_email, r.inquirer_phone,
    r.inquirer_company, r.inquirer_department, r.status, r.api_key_id, r.created_at,
  ]
}

/** An inquiry to store and, optionally, the idempotency key (held by `holder`) its response completes. */
export interface InquiryWrite {
  record: InquiryRecord
  idempotency?: { key: string; holder: string; response: StoredResponse } | undefined
  /** Its events (`inquiry.created`), written with it. */
  events?: readonly OutboxEvent[] | undefined
}

const TYPES = INQUIRY_COLUMNS.map((column) => (column === 'priority' ? 'integer[]' : 'text[]'))
const N = INQUIRY_COLUMNS.length
// Hint: one statement, so it commits atomically by itself (no BEGIN/COMMIT round trips). The
// claims still held by their requests are locked first (`held`: a claim taken over meanwhile is
// seen as it is now, and one taken over later waits for this commit), then the inquiries
// without a key or with a held claim are inserted, then the keys of those inserted completed
// with their responses, and the events of those inserted written, numbered from event_state
// (whose row lock, taken only when there are events, orders the numbers by commit: see
// records/events.ts). The inquiries whose claim was lost come back marked `lost`.
const INSERT_MANY = `WITH claims AS (
    SELECT * FROM unnest($${N + 1}::text[], $${N + 2}::text[], $${N + 3}::text[], $${N + 4}::integer[], $${N + 5}::text[], $${N + 6}::text[])
      AS c(tenant_id, inquiry_id, key, status, body, holder)
  ), held AS (
    SELECT c.tenant_id, c.inquiry_id FROM idempotency_keys k JOIN claims c ON k.tenant_id = c.tenant_id AND k.key = c.key
     WHERE k.state = 'in_flight' AND k.holder = c.holder
       FOR UPDATE OF k
  ), ins AS (
    INSERT INTO inquiries (${COLUMNS})
    SELECT r.* FROM unnest(${TYPES.map((type, i) => `$${i + 1}::${type}`).join(', ')}) AS r(${COLUMNS})
     WHERE NOT EXISTS (SELECT 1 FROM claims c WHERE c.tenant_id = r.tenant_id AND c.inquiry_id = r.id)
        OR EXISTS (SELECT 1 FROM held h WHERE h.tenant_id = r.tenant_id AND h.inquiry_id = r.id)
    ON CONFLICT (tenant_id, id) DO NOTHING RETURNING tenant_id, id
  ), done AS (
    UPDATE idempotency_keys k SET state = 'completed', response_status = c.status, response_body = c.body
      FROM claims c
     WHERE k.tenant_id = c.tenant_id AND k.key = c.key AND k.state = 'in_flight' AND k.holder = c.holder
       AND EXISTS (SELECT 1 FROM ins WHERE ins.tenant_id = c.tenant_id AND ins.id = c.inquiry_id)
  ), st AS (
    UPDATE event_state SET last_seq = last_seq + $${N + 7} WHERE $${N + 7}::bigint > 0 RETURNING last_seq
  ), ev AS (
    INSERT INTO events (seq, tenant_id, id, type, created_at, data)
    SELECT st.last_seq - $${N + 7} + e.n, e.tenant_id, e.id, e.type, e.created_at, e.data
      FROM st, unnest($${N + 8}::text[], $${N + 9}::text[], $${N + 10}::text[], $${N + 11}::text[], $${N + 12}::text[], $${N + 13}::text[])
           WITH ORDINALITY AS e(inquiry_id, tenant_id, id, type, created_at, data, n)
     WHERE EXISTS (SELECT 1 FROM ins WHERE ins.tenant_id = e.tenant_id AND ins.id = e.inquiry_id)
  )
  SELECT tenant_id, id, false AS lost FROM ins
  UNION ALL
  SELECT c.tenant_id, c.inquiry_id, true FROM claims c
   WHERE NOT EXISTS (SELECT 1 FROM held h WHERE h.tenant_id = c.tenant_id AND h.inquiry_id = c.inquiry_id)`

/**
 * Inserts inquiries with one statement (an id already taken within its tenant is skipped, and
 * so is an inquiry whose idempotency claim is no longer its request's) and completes the
 * idempotency keys of those inserted. Returns the inserted ones and those whose claim was
 * lost, as `tenant\0id`.
 */
export async function insertInquiries(sql: Sql, writes: readonly InquiryWrite[]): Promise<{ inserted: Set<string>; lost: Set<string> }> {
  const columns = INQUIRY_COLUMNS.map(() => [] as (string | number | null)[])
  const keys: (string | number)[][] = [[], [], [], [], [], []]
  for (const { record, idempotency } of writes) {
    inquiryValues(record).forEach((value, i) => columns[i]?.push(value))
    if (idempotency === undefined) continue
    const values = [record.tenant_id, record.id, idempotency.key, idempotency.response.status, JSON.stringify(idempotency.response.body), idempotency.holder]
    values.forEach((value, i) => keys[i]?.push(value))
  }
  const events = writes.flatMap(({ record, events }) => (events ?? []).map((event) => ({ inquiryId: record.id, event })))
  const eventValues = [events.map((e) => e.inquiryId), ...eventColumns(events.map((e) => e.event))]
  const rows = await sql.rows<{ tenant_id: string; id: string; lost: boolean }>(INSERT_MANY, [...columns, ...keys, events.length, ...eventValues])
  const inserted = new Set<string>()
  const lost = new Set<string>()
  for (const row of rows) (row.lost ? lost : inserted).add(`${row.tenant_id}\u0000${row.id}`)
  return { inserted, lost }
}

/** The tenant's inquiry with this id, or `null`. */
export async function selectInquiry(sql: Sql, tenantId: string, id: string): Promise<InquiryRecord | null> {
  return (await sql.rows<InquiryRecord>(`SELECT ${COLUMNS} FROM inquiries WHERE tenant_id = $1 AND id = $2`, [tenantId, id]))[0] ?? null
}

/** The tenant's inquiries, newest (highest id) first, optionally of one status and before an id. */
export async function selectInquiries(sql: Sql, tenantId: string, options: { status?: InquiryStatus; before?: string; limit: number }): Promise<InquiryRecord[]> {
  const where = ['tenant_id = $1']
  const params: (string | number)[] = [tenantId]
  if (options.status !== undefined) {
    params.push(options.status)
    where.push(`status = $${params.length}`)
  }
  if (options.before !== undefined) {
    params.push(options.before)
    where.push(`id < $${params.length}`)
  }
  params.push(Math.max(0, Math.floor(options.limit)))
  return sql.rows<InquiryRecord>(`SELECT ${COLUMNS} FROM inquiries WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.length}`, params)
}

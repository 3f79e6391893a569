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

/** An inquiry to store and, optionally, the idempotency key its response completes. */
export interface InquiryWrite {
  record: InquiryRecord
  idempotency?: { key: string; response: StoredResponse } | undefined
  /** Its events (`inquiry.created`), written with it. */
  events?: readonly OutboxEvent[] | undefined
}

const TYPES = INQUIRY_COLUMNS.map((column) => (column === 'priority' ? 'integer[]' : 'text[]'))
const N = INQUIRY_COLUMNS.length
// Hint: one statement, so it commits atomically by itself (no BEGIN/COMMIT round trips): the
// inquiries, then the keys of those inserted completed with their responses, and the events of
// those inserted, numbered from event_state (whose row lock, taken only when there are events,
// orders the numbers by commit: see records/events.ts).
const INSERT_MANY = `WITH ins AS (
    INSERT INTO inquiries (${COLUMNS}) SELECT * FROM unnest(${TYPES.map((type, i) => `$${i + 1}::${type}`).join(', ')})
    ON CONFLICT (tenant_id, id) DO NOTHING RETURNING tenant_id, id
  ), done AS (
    UPDATE idempotency_keys k SET state = 'completed', response_status = v.status, response_body = v.body
      FROM unnest($${N + 1}::text[], $${N + 2}::text[], $${N + 3}::text[], $${N + 4}::integer[], $${N + 5}::text[]) AS v(tenant_id, inquiry_id, key, status, body)
     WHERE k.tenant_id = v.tenant_id AND k.key = v.key AND EXISTS (SELECT 1 FROM ins WHERE ins.tenant_id = v.tenant_id AND ins.id = v.inquiry_id)
  ), st AS (
    UPDATE event_state SET last_seq = last_seq + $${N + 6} WHERE $${N + 6}::bigint > 0 RETURNING last_seq
  ), ev AS (
    INSERT INTO events (seq, tenant_id, id, type, created_at, data)
    SELECT st.last_seq - $${N + 6} + e.n, e.tenant_id, e.id, e.type, e.created_at, e.data
      FROM st, unnest($${N + 7}::text[], $${N + 8}::text[], $${N + 9}::text[], $${N + 10}::text[], $${N + 11}::text[], $${N + 12}::text[])
           WITH ORDINALITY AS e(inquiry_id, tenant_id, id, type, created_at, data, n)
     WHERE EXISTS (SELECT 1 FROM ins WHERE ins.tenant_id = e.tenant_id AND ins.id = e.inquiry_id)
  )
  SELECT tenant_id, id FROM ins`

/**
 * Inserts inquiries with one statement (an id already taken within its tenant is skipped) and
 * completes the idempotency keys of those inserted. Returns the inserted ones as `tenant\0id`.
 */
export async function insertInquiries(sql: Sql, writes: readonly InquiryWrite[]): Promise<Set<string>> {
  const columns = INQUIRY_COLUMNS.map(() => [] as (string | number | null)[])
  const keys: (string | number)[][] = [[], [], [], [], []]
  for (const { record, idempotency } of writes) {
    inquiryValues(record).forEach((value, i) => columns[i]?.push(value))
    if (idempotency === undefined) continue
    const values = [record.tenant_id, record.id, idempotency.key, idempotency.response.status, JSON.stringify(idempotency.response.body)]
    values.forEach((value, i) => keys[i]?.push(value))
  }
  const events = writes.flatMap(({ record, events }) => (events ?? []).map((event) => ({ inquiryId: record.id, event })))
  const eventValues = [events.map((e) => e.inquiryId), ...eventColumns(events.map((e) => e.event))]
  const rows = await sql.rows<{ tenant_id: string; id: string }>(INSERT_MANY, [...columns, ...keys, events.length, ...eventValues])
  return new Set(rows.map((row) => `${row.tenant_id}\u0000${row.id}`))
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

import type { InquiryRecord, InquiryStatus } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'

const COLUMNS =
  'tenant_id, id, category_code, title, content, priority, inquirer_name, inquirer_email, inquirer_phone, inquirer_company, inquirer_department, status, api_key_id, created_at'

function toInquiry(row: InquiryRecord): InquiryRecord {
  return {
    tenant_id: row.tenant_id,
    id: row.id,
    category_code: row.category_code,
    title: row.title,
    content: row.content,
    priority: row.priority,
    inquirer_name: row.inquirer_name,
    inquirer_email: row.inquirer_email,
    inquirer_phone: row.inquirer_phone,
    inquirer_company: row.inquirer_company,
    inquirer_department: row.inquirer_department,
    status: row.status,
    api_key_id: row.api_key_id,
    created_at: row.created_at,
  }
}

/** Inserts an inquiry; throws when its id is taken within the tenant. */
export function insertInquiryRow(conn: Connection, r: InquiryRecord): void {
  conn
    .prepare(`INSERT INTO inquiries (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(
      r.tenant_id, r.id, r.category_code, r.title, r.content, r.priority, r.inquirer_name, r.inquirer_email,
      r.inquirer_phone, r.inquirer_company, r.inquirer_department, r.status, r.api_key_id, r.created_at,
    )
}

/** The tenant's inquiry with this id, or `null`. */
export function selectInquiry(conn: Connection, tenantId: string, id: string): InquiryRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM inquiries WHERE tenant_id = ? AND id = ?`).get(tenantId, id) as InquiryRecord | undefined
  return row === undefined ? null : toInquiry(row)
}

/** The tenant's inquiries, newest (highest id) first, optionally of one status and before an id. */
export function selectInquiries(
  conn: Connection,
  tenantId: string,
  options: { status?: InquiryStatus; before?: string; limit: number },
): InquiryRecord[] {
  const where = ['tenant_id = ?']
  const params: (string | number)[] = [tenantId]
  if (options.status !== undefined) {
    where.push('status = ?')
    params.push(options.status)
  }
  if (options.before !== undefined) {
    where.push('id < ?')
    params.push(options.before)
  }
  const sql = `SELECT ${COLUMNS} FROM inquiries WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`
  return (conn.prepare(sql).all(...params, Math.max(0, Math.floor(options.limit))) as InquiryRecord[]).map(toInquiry)
}

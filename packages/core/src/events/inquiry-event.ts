import type { InquiryCreated } from '../inquiry/inquiry-created.ts'
import type { InquiryRecord } from '../model/inquiry.ts'
import type { OutboxEvent } from '../port/event-outbox.ts'
import { newId } from '../util/ids.ts'

/**
 * The `inquiry.created` event of a new inquiry: the creation response's fields, and the fields
 * the inquirer submitted (the receiver is the inquiry system; the response alone omits them).
 */
export function inquiryCreatedEvent(record: InquiryRecord, created: InquiryCreated, now: number): OutboxEvent {
  return {
    tenant_id: record.tenant_id,
    id: newId('evt', now),
    type: 'inquiry.created',
    created_at: record.created_at,
    data: {
      ...created,
      content: record.content,
      priority: record.priority,
      inquirer_name: record.inquirer_name,
      inquirer_email: record.inquirer_email,
      inquirer_phone: record.inquirer_phone,
      inquirer_company: record.inquirer_company,
      inquirer_department: record.inquirer_department,
    },
  }
}

import * as v from 'valibot'
import type { InquiryCategoryRecord, InquiryRecord } from '../model/inquiry.ts'
import type { JsonValue } from '../model/json.ts'
import { InquiryCreatedSchema } from '../response/response-bodies.ts'

/** The confirmation text of a category that sets none (README "Inquiries"). */
export const DEFAULT_INQUIRY_MESSAGE = 'Thank you. Your inquiry has been received.'

/** The body of `201 Created` for `POST /v1/inquiries` (README "API reference"); see `InquiryCreatedSchema`. */
export type InquiryCreated = v.InferOutput<typeof InquiryCreatedSchema>

/** The creation response for a stored inquiry; a blank category message means the default. */
export function toInquiryCreated(inquiry: InquiryRecord, category: Pick<InquiryCategoryRecord, 'message'>): InquiryCreated {
  const message = category.message.trim()
  return {
    id: inquiry.id,
    category_code: inquiry.category_code,
    title: inquiry.title,
    status: inquiry.status,
    created_at: inquiry.created_at,
    message: message === '' ? DEFAULT_INQUIRY_MESSAGE : message,
  }
}

/** Whether a stored response body has the creation response's shape (`InquiryCreatedSchema`). */
export function isInquiryCreated(body: JsonValue): body is JsonValue & InquiryCreated {
  return v.is(InquiryCreatedSchema, body)
}

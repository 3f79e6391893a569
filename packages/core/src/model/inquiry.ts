/** An inquiry category: what a contact form offers in its selector. */
export interface InquiryCategoryRecord {
  tenant_id: string
  id: string
  /** Unique per tenant. */
  code: string
  name: string
  description: string
  sort: number
  active: boolean
  /** Confirmation text returned on creation. */
  message: string
  created_at: string
  updated_at: string
}

/** Status of an inquiry; creation always yields `open`. */
export type InquiryStatus = 'open'

/** An inquiry as stored. */
export interface InquiryRecord {
  tenant_id: string
  id: string
  category_code: string
  title: string
  content: string
  /** 1 = low, 2 = medium (default), 3 = high. */
  priority: 1 | 2 | 3
  inquirer_name: string
  inquirer_email: string
  inquirer_phone: string | null
  inquirer_company: string | null
  inquirer_department: string | null
  status: InquiryStatus
  /** The key that created it. */
  api_key_id: string | null
  created_at: string
}

import type { ApiKeyRecord } from '../model/api-key.ts'
import type { CategoryRecord, FieldDefinition } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { InquiryCategoryRecord, InquiryRecord } from '../model/inquiry.ts'
import type { PreviewTokenRecord } from '../model/preview-token.ts'
import type { TagRecord } from '../model/tag.ts'
import type { Tenant } from '../model/tenant.ts'

/*
 * Record builders for the conformance suite: plain, fully filled records with every optional
 * column set to something recognisable, so that a round-trip that drops a column shows.
 */

/** A moment every fixture is relative to. */
export const T0 = '2025-06-20T12:00:00.000Z'

/** `T0` moved by `minutes` (may be negative), as an ISO string. */
export function at(minutes: number): string {
  return new Date(Date.parse(T0) + minutes * 60_000).toISOString()
}

/** A tenant. */
export function aTenant(id: string, code: string = id.replace(/_/g, '-').toLowerCase()): Tenant {
  return { id, code, name: `Tenant ${code}`, created_at: T0 }
}

/** An enabled tenant key with `cms:read`. */
export function anApiKey(tenantId: string, id: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id, tenant_id: tenantId, name: `key ${id}`, kind: 'tenant', permissions: ['cms:read', 'cms:search'],
    hash: `hash-${id}`, prefix: 'fdk_abcd', created_at: T0, last_used_at: null, disabled_at: null, rate_limit: null,
    ...overrides,
  }
}

/** A preview token for one content item. */
export function aPreviewToken(tenantId: string, id: string, overrides: Partial<PreviewTokenRecord> = {}): PreviewTokenRecord {
  return {
    id, tenant_id: tenantId, target: { kind: 'content', id: 'cnt_1' }, hash: `phash-${id}`,
    created_at: T0, expires_at: at(60), revoked_at: null, ...overrides,
  }
}

/** Custom fields of every type, used by `aCategory` when asked for fields. */
export const FIELDS = {
  text: { id: 'fld_text', name: 'colour', type: 'text', required: false },
  number: { id: 'fld_num', name: 'price', type: 'number', required: true },
  date: { id: 'fld_date', name: 'release', type: 'date', required: false },
  boolean: { id: 'fld_bool', name: 'featured', type: 'boolean', required: false },
  select: { id: 'fld_sel', name: 'size', type: 'select', options: ['s', 'm', 'l'], required: false },
} satisfies Record<string, FieldDefinition>

/** An active category without custom fields. */
export function aCategory(tenantId: string, id: string, overrides: Partial<CategoryRecord> = {}): CategoryRecord {
  return {
    tenant_id: tenantId, id, code: id.replace(/_/g, '-'), name: `Category ${id}`, description: `About ${id}`,
    sort: 0, active: true, fields: [], created_at: T0, updated_at: T0, ...overrides,
  }
}

/** A tag. */
export function aTag(tenantId: string, id: string, name: string = id.replace(/^tag_/, '')): TagRecord {
  return { tenant_id: tenantId, id, name }
}

/** A published item (published at `T0`) of `categoryId`, without tags or fields. */
export function aContent(tenantId: string, id: string, categoryId: string, overrides: Partial<ContentRecord> = {}): ContentRecord {
  return {
    tenant_id: tenantId, id, slug: `slug-${id}`, title: `Title ${id}`, category_id: categoryId, status: 'published',
    published_at: T0, author_name: 'Ann Author', tags: [], summary: `Summary ${id}`, body: `<p>Body ${id}</p>`,
    fields: {}, meta: { og_title: `OG ${id}`, og_description: '' }, version: 1, created_at: T0, updated_at: T0,
    ...overrides,
  }
}

/** An active inquiry category. */
export function anInquiryCategory(tenantId: string, id: string, overrides: Partial<InquiryCategoryRecord> = {}): InquiryCategoryRecord {
  return {
    tenant_id: tenantId, id, code: id.replace(/_/g, '-'), name: `Inquiry category ${id}`, description: '',
    sort: 0, active: true, message: 'Thank you. Your inquiry has been received.', created_at: T0, updated_at: T0,
    ...overrides,
  }
}

/** An open inquiry with every optional field set. */
export function anInquiry(tenantId: string, id: string, overrides: Partial<InquiryRecord> = {}): InquiryRecord {
  return {
    tenant_id: tenantId, id, category_code: 'general', title: `Inquiry ${id}`, content: 'Hello,\nplease call me.',
    priority: 2, inquirer_name: 'Ina Quirer', inquirer_email: 'ina@example.com', inquirer_phone: '+1 555 0100',
    inquirer_company: 'Example Ltd', inquirer_department: 'Sales', status: 'open', api_key_id: 'key_1',
    created_at: T0, ...overrides,
  }
}

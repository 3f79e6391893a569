import type { RequiredPermission } from './permissions.ts'

/** The public operations of `/v1` and the permission each needs (docs/API.md "Endpoints"). */
export const OPERATIONS = {
  listContents: 'cms:read',
  getContent: 'cms:read',
  getContentBySlug: 'cms:read',
  listCategories: 'cms:read',
  getCategory: 'cms:read',
  search: 'cms:search',
  createInquiry: 'inquiry:create',
  listInquiryCategories: 'inquiry:create',
} as const satisfies Record<string, RequiredPermission>

/** The name of a public operation. */
export type Operation = keyof typeof OPERATIONS

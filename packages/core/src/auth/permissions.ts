/** The permissions of README "API reference". */
export const PERMISSIONS = ['cms:read', 'cms:search', 'cms:*', 'inquiry:create'] as const

/** A permission a tenant key can hold. */
export type Permission = (typeof PERMISSIONS)[number]

/** The permission each endpoint needs (`cms:*` is a grant, never a requirement). */
export type RequiredPermission = Exclude<Permission, 'cms:*'>

/** Whether `value` names a known permission. */
export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value)
}

/** Whether a key holding `granted` may call an endpoint that needs `required`. */
export function hasPermission(granted: readonly Permission[], required: RequiredPermission): boolean {
  if (granted.includes(required)) return true
  // Hint: `cms:*` includes every content-area permission, and nothing of the inquiry area.
  return required.startsWith('cms:') && granted.includes('cms:*')
}

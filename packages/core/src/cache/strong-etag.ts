import { hash } from 'node:crypto'

/**
 * A strong ETag of a reply's JSON text, also covering `scope` (the tenant id): two tenants'
 * identical bodies (an empty list, say) get different ETags, so an ETag seen by one tenant
 * never earns a 304 from another — that 304 would tell that the other tenant's reply is the same.
 */
export function strongEtag(scope: string, json: string): string {
  return `"${hash('sha256', `${scope}\0${json}`, 'base64url')}"`
}

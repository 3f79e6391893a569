import type { Context } from '../app/context.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { ApiKeyRecord } from '../model/api-key.ts'

/** Deletes a key for good (rotation's last step). Returns the deleted key's record. */
export async function deleteApiKey(ctx: Context, keyId: string): Promise<ApiKeyRecord> {
  const key = await ctx.store.getApiKey(keyId)
  if (key === null || !(await ctx.store.deleteApiKey(keyId))) throw new UsageError(`Unknown API key: ${keyId}`)
  return key
}

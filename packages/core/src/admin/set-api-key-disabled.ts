import type { Context } from '../app/context.ts'
import { isoAt } from '../app/clock.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { ApiKeyRecord } from '../model/api-key.ts'

/**
 * Disables or re-enables a key; the next request in every server process sees it.
 * Disabling a disabled key keeps its first `disabled_at`. Returns the key as now stored.
 */
export async function setApiKeyDisabled(ctx: Context, keyId: string, disabled: boolean): Promise<ApiKeyRecord> {
  const key = await ctx.store.getApiKey(keyId)
  if (key === null) throw new UsageError(`Unknown API key: ${keyId}`)
  if ((key.disabled_at !== null) === disabled) return key
  const disabledAt = disabled ? isoAt(ctx.clock.now()) : null
  if (!(await ctx.store.updateApiKey(keyId, { disabled_at: disabledAt }))) throw new UsageError(`Unknown API key: ${keyId}`)
  return { ...key, disabled_at: disabledAt }
}

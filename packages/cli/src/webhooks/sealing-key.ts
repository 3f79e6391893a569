import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { newSealingKey, sealingKey, UsageError } from '@frontdesk/core'
import { isPostgresUrl } from '../session.ts'

/**
 * The key webhook secrets are sealed under (see core's `secret-box.ts`), kept outside the
 * database: `$FRONTDESK_WEBHOOK_KEY` (32 bytes, base64url) when set; else, for a SQLite
 * database, the file `<database>.webhook-key` beside it (mode 0600), made on first use when
 * `create` is set. A copy of the database file alone then does not reveal the secrets.
 */
export function webhookSealingKey(db: string, vars: Record<string, string | undefined>, create: boolean): Buffer | null {
  const given = vars['FRONTDESK_WEBHOOK_KEY']
  if (given !== undefined && given !== '') {
    try {
      return sealingKey(given)
    } catch (error) {
      throw new UsageError(`FRONTDESK_WEBHOOK_KEY: ${(error as Error).message}`)
    }
  }
  if (isPostgresUrl(db)) {
    if (!create) return null
    throw new UsageError('Set FRONTDESK_WEBHOOK_KEY (32 random bytes in base64url, the same on every server) to keep webhook secrets of a PostgreSQL database')
  }
  const file = `${db}.webhook-key`
  if (!existsSync(file)) {
    if (!create) return null
    writeFileSync(file, `${newSealingKey()}\n`, { mode: 0o600, flag: 'wx' })
    chmodSync(file, 0o600)
  }
  try {
    return sealingKey(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`)
  }
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/*
 * Webhook signing secrets are symmetric (the server must sign with them), so they cannot be
 * stored as hashes. They are sealed with AES-256-GCM under a key kept outside the database
 * (the CLI's `$FRONTDESK_WEBHOOK_KEY`, or a key file beside a SQLite database): a copy of the
 * database alone does not reveal them. The endpoint's id is the additional data, so a sealed
 * secret copied onto another endpoint does not open.
 */

const VERSION = 'v1'

/** A new webhook signing secret: `whsec_` + 32 random bytes in base64 (the Standard Webhooks form). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** A new sealing key: 32 random bytes, base64url. */
export function newSealingKey(): string {
  return randomBytes(32).toString('base64url')
}

/** The 32-byte key of a base64url text; throws when it is not one. */
export function sealingKey(text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64url')
  if (key.length !== 32) throw new Error('A webhook sealing key must be 32 bytes in base64url (43 characters)')
  return key
}

/** `secret` sealed under `key` for the endpoint `endpointId`. */
export function sealSecret(key: Buffer, endpointId: string, secret: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(endpointId))
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`
}

/** The secret `sealed` holds; throws when the key or the endpoint is not the one it was sealed for. */
export function openSecret(key: Buffer, endpointId: string, sealed: string): string {
  const [version, iv, body] = sealed.split('.')
  if (version !== VERSION || iv === undefined || body === undefined) throw new Error('Not a sealed webhook secret')
  const data = Buffer.from(body, 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
  decipher.setAAD(Buffer.from(endpointId))
  decipher.setAuthTag(data.subarray(data.length - 16))
  try {
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8')
  } catch {
    throw new Error('The webhook secret does not open with this key (a different FRONTDESK_WEBHOOK_KEY or key file?)')
  }
}

import { createHmac } from 'node:crypto'

/**
 * The `webhook-signature` value of one secret for a delivery (Standard Webhooks): `v1,` and the
 * base64 HMAC-SHA256, keyed by the secret's bytes (the base64 after `whsec_`), of
 * `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/** The headers of a delivery: each secret that signs (the current one, and during a rotation the previous one) adds a signature, space-separated. */
export function webhookHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'frontdesk-webhooks',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' '),
  }
}

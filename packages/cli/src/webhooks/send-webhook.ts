import { lookup as dnsLookup } from 'node:dns'
import type { LookupAddress, LookupOptions } from 'node:dns'
import { Agent, request } from 'node:https'
import { isIP } from 'node:net'
import type { WebhookRequest, WebhookResponse } from '@frontdesk/core'
import { refusedAddress } from './target-address.ts'

/** How long an attempt may take, connection to last byte. */
export const WEBHOOK_TIMEOUT_MS = 10_000
/** The most of a response body read (the rest is dropped with the connection). */
export const MAX_RESPONSE_BYTES = 64 * 1024

/**
 * Connections are kept open between deliveries (a TLS handshake costs more than a delivery);
 * one pool per trust setting. Each new connection's address is checked by the lookup below.
 */
const agents = new Map<string, Agent>()
function agentFor(options: SendOptions): Agent {
  const key = `${options.allowPrivate}\u0000${options.ca?.toString() ?? ''}`
  let agent = agents.get(key)
  if (agent === undefined) {
    agent = new Agent({ keepAlive: true, maxFreeSockets: 16, ...(options.ca === undefined ? {} : { ca: options.ca }) })
    agents.set(key, agent)
  }
  return agent
}

/** Options of `sendWebhook`. */
export interface SendOptions {
  /** Allow loopback, private and link-local targets (`--allow-private-webhook-targets`). */
  allowPrivate: boolean
  /** Certificates to trust besides the system's (tests). */
  ca?: string | Buffer
  timeoutMs?: number
}

/**
 * Sends one webhook request over HTTPS: the address the name resolves to is checked when the
 * connection is made (a custom lookup), redirects are not followed (a 3xx is a failure), the
 * whole attempt is bounded by a timeout, and at most 64 KiB of the response are read. Never
 * throws: a refused address, a bad certificate, a reset or a timeout comes back as `error`.
 */
export function sendWebhook(req: WebhookRequest, options: SendOptions): Promise<WebhookResponse> {
  return new Promise((resolve) => {
    let settled = false
    let timer: NodeJS.Timeout | undefined
    const finish = (response: WebhookResponse) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(response)
    }
    let url: URL
    try {
      url = new URL(req.url)
    } catch {
      finish({ status: null, error: 'invalid URL' })
      return
    }
    if (url.protocol !== 'https:') {
      finish({ status: null, error: 'only https:// URLs are allowed' })
      return
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
    // Hint: Node calls no lookup for an IP literal, so its address is checked here.
    if (isIP(host) !== 0 && !options.allowPrivate) {
      const why = refusedAddress(host)
      if (why !== null) {
        finish({ status: null, error: `refused target: ${why}` })
        return
      }
    }
    const guardedLookup = (hostname: string, lookupOptions: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
      dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
        if (error !== null) return callback(error, '', 0)
        const list = addresses as LookupAddress[]
        if (!options.allowPrivate) {
          for (const { address } of list) {
            const why = refusedAddress(address)
            if (why !== null) return callback(Object.assign(new Error(`refused target: ${hostname} resolves to ${why}`), { code: 'EREFUSEDTARGET' }), '', 0)
          }
        }
        if (lookupOptions.all === true) return callback(null, list)
        const first = list[0]
        if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0)
        callback(null, first.address, first.family)
      })
    }
    const body = Buffer.from(req.body)
    const outgoing = request(url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(body.length) },
      lookup: guardedLookup as never,
      agent: agentFor(options),
    })
    timer = setTimeout(() => {
      // Hint: a response not ended in time fails even when its status came (the receiver hung).
      finish({ status: null, error: `timed out after ${(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000} s` })
      outgoing.destroy()
    }, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS)
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      finish({ status: null, error: error.message.startsWith('refused target') || error.message.startsWith('timed out') ? error.message : `${error.code ?? 'error'}: ${error.message}` })
    })
    outgoing.on('response', (response) => {
      const status = response.statusCode ?? null
      let read = 0
      response.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read >= MAX_RESPONSE_BYTES) {
          // Hint: the status is all we need; the rest of a large body is not read.
          response.destroy()
          outgoing.destroy()
          finish({ status, error: null })
        }
      })
      response.on('end', () => finish({ status, error: null }))
      response.on('error', () => finish({ status, error: null }))
      response.on('close', () => finish({ status, error: null }))
    })
    outgoing.end(body)
  })
}

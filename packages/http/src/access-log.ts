import { looksSecret, SECRET_SHAPE } from './secret-shape.ts'

/** One line of the access log: a request, who made it and how it ended. Never a key or token. */
export interface AccessLogEntry {
  /** When the response ended (ISO 8601 UTC). */
  time: string
  request_id: string
  /** The tenant's code once the key was recognised, else `null`. */
  tenant: string | null
  /** The id of the API key (`key_…`), never the key itself; `null` before authentication. */
  key_id: string | null
  method: string
  /** Path and query with secrets redacted (see `redactTarget`). */
  path: string
  /** The status sent; 0 when the client went away before a response was sent. */
  status: number
  /** From the request's arrival to the response's end, in milliseconds (3 decimals). */
  duration_ms: number
  /** Bytes of the response body. */
  bytes: number
  /** The client's address (a trusted proxy's `X-Forwarded-For` client, else the peer). */
  remote_address: string | null
  /** `true` when the connection closed before the response was completely sent. */
  aborted?: true
  /** Which worker process answered (`frontdesk serve --workers`: 1 to N); set by whoever runs several. */
  worker?: number
}

/** Receives every access-log entry. A throwing callback is ignored (it never fails a request). */
export type AccessLogger = (entry: AccessLogEntry) => void

const REDACTED = 'REDACTED'
const SECRET_PARAMETERS = new Set(['preview_token', 'api_key', 'apikey', 'key', 'token', 'x-api-key'])

/**
 * A request target fit for logs: the path and query as sent, except that the values of
 * `preview_token` (and of `api_key`, `key`, `token`, which frontdesk never reads but a
 * confused client may send) become `REDACTED`, and so does any path segment, parameter name or
 * value that holds something shaped like a key or token (`fdk_`/`fdp_`/`fdv_`…, see
 * `looksSecret`) once its percent-encoding is undone (`%66dk_…` is still a key). Other
 * parameters are kept, since they explain what the request asked for. Long targets are cut at
 * 2048 characters.
 */
export function redactTarget(url: string): string {
  // Hint: most targets hold nothing to redact; three scans prove it without splitting them.
  if (!MAY_NEED_REDACTING.test(url) && !SECRET_PARAMETER.test(url) && !looksSecret(url)) return url.length > 2048 ? `${url.slice(0, 2048)}…` : url
  return redactedTarget(url)
}

/*
 * What `redactTarget`'s shortcut relies on: without `%` and outside ASCII (where `toLowerCase`
 * and the `i` flag could disagree), a name or value is its own decoding, so a secret shape in
 * one of them is one in the target, and a secret parameter's name sits after `?` or `&`.
 */
const MAY_NEED_REDACTING = /[%\u0080-\uffff]/
const SECRET_PARAMETER = /[?&](?:preview_token|api_key|apikey|key|token|x-api-key)=/i

/** `redactTarget` the long way, pair by pair: what its shortcut is held to (see the tests). */
export function redactedTarget(url: string): string {
  const at = url.indexOf('?')
  const path = at === -1 ? url : url.slice(0, at)
  let target = path.includes('%') || looksSecret(path) ? path.split('/').map((segment) => (looksSecret(percentDecoded(segment)) ? REDACTED : segment)).join('/') : path
  if (at !== -1) {
    const query = url
      .slice(at + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=')
        const rawName = eq === -1 ? pair : pair.slice(0, eq)
        const name = percentDecoded(rawName)
        if (looksSecret(name)) return REDACTED
        if (eq === -1) return pair
        const secret = SECRET_PARAMETERS.has(name.toLowerCase()) || looksSecret(percentDecoded(pair.slice(eq + 1)))
        return secret ? `${rawName}=${REDACTED}` : pair
      })
      .join('&')
    target = `${target}?${query}`
  }
  // Hint: whatever the split missed (a fragment, odd separators) is still caught here.
  target = target.replace(SECRET_SHAPE, REDACTED)
  return target.length > 2048 ? `${target.slice(0, 2048)}…` : target
}

/** Lines gathered to be written together (see `createLineBuffer`). */
export interface LineBuffer {
  /** Queues one line (with its newline); it is written within this turn of the event loop. */
  push(line: string): void
  /** Writes whatever is queued now (call it before exiting). */
  flush(): void
}

/**
 * Gathers access-log lines and hands them to `write` together: once per turn of the event
 * loop (`setImmediate`), or at once when `maxBytes` are waiting. On a pipe or file, every
 * `process.stdout.write` is a synchronous system call, so one per request costs more than the
 * line itself; under load one write then carries the lines of a whole batch of responses.
 * A throwing `write` drops that batch (a log must never fail the server).
 */
export function createLineBuffer(write: (text: string) => void, maxBytes = 64 * 1024): LineBuffer {
  let queued: string[] = []
  let bytes = 0
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (queued.length === 0) return
    const text = queued.join('')
    queued = []
    bytes = 0
    try {
      write(text)
    } catch {
      // The lines are lost, the server goes on.
    }
  }
  return {
    push(line) {
      queued.push(line)
      bytes += line.length
      if (bytes >= maxBytes) flush()
      else if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush,
  }
}

/**
 * One JSON line (with its newline) for `entry`: `JSON.stringify(entry)`'s very text, written
 * field by field (the line is made for every request; the tests hold it to the original).
 */
export function formatAccessLog(entry: AccessLogEntry): string {
  let line = `{"time":${text(entry.time)},"request_id":${text(entry.request_id)},"tenant":${text(entry.tenant)},"key_id":${text(entry.key_id)},"method":${text(entry.method)},"path":${text(entry.path)},"status":${number(entry.status)},"duration_ms":${number(entry.duration_ms)},"bytes":${number(entry.bytes)},"remote_address":${text(entry.remote_address)}`
  if (entry.aborted !== undefined) line += `,"aborted":${JSON.stringify(entry.aborted)}`
  if (entry.worker !== undefined) line += `,"worker":${number(entry.worker)}`
  return `${line}}\n`
}

// Hint: what JSON.stringify escapes in a string: quotes, backslashes, control characters and
// lone surrogates (a pair is tested as two, so it takes the long way too, and comes out the same).
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/

/** `JSON.stringify(value)` of a string or null, without its work when nothing needs escaping. */
function text(value: string | null): string {
  return value === null || NEEDS_ESCAPING.test(value) ? JSON.stringify(value) : `"${value}"`
}

/** `JSON.stringify(value)` of a number (`null` when not finite). */
function number(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null'
}

/**
 * `new Date().toISOString()`, made once per millisecond: a busy server logs many responses in
 * the same one.
 */
export function isoNow(): string {
  const now = Date.now()
  if (now !== lastMs) {
    lastMs = now
    lastIso = new Date(now).toISOString()
  }
  return lastIso
}

let lastMs = Number.NaN
let lastIso = ''

/**
 * `text` with its `%XX` escapes undone byte by byte (up to three rounds, for double encoding).
 * Lenient on purpose: a malformed escape elsewhere must not keep a key from being recognised.
 */
function percentDecoded(text: string): string {
  let decoded = text
  for (let round = 0; round < 3 && decoded.includes('%'); round++) {
    const next = decoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    if (next === decoded) break
    decoded = next
  }
  return decoded
}

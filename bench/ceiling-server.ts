import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import * as https from 'node:https'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'

/*
 * The ceiling: a bare `node:https` server answering every request with the same 1 KB JSON
 * body, over the same certificate and keep-alive settings as frontdesk. Run as its own
 * process (forked with an IPC channel): argv = CERT KEY [--reply FILE [--async] | --floor detail|list|filtered
 * --db FILE --tenant CODE]. Sends `{ port }` once listening; exits when the parent goes away.
 *
 * `--reply FILE` (a `RecordedReply` as JSON, written by the benchmark from one real answer of
 * frontdesk): it answers with that reply's status, headers and body instead, and a fresh
 * `x-request-id` each time as frontdesk does: what a server doing no work at all would reach
 * with frontdesk's reply, bytes for bytes, on this machine. With `--async` as well, it answers
 * from a promise callback instead of the request's `end` event, as any handler over an
 * asynchronous port must.
 *
 * `--floor detail|list|filtered`: the least a server built on `node:https` and better-sqlite3
 * must do for a cache miss, over the benchmark's own database (read-only), with no keys, no
 * cache, no ETag, no tag names and no log. `detail` reads the row of the id at the end of the
 * path (`SELECT *`, one statement) and sends it as JSON; `list` reads the next page of 20
 * published items (keyset, the summary columns of a list item, in a rotation of every page)
 * and sends them as JSON. What a miss of frontdesk reaches below these is ours to win; above
 * them, nothing on this stack can go. `filtered` is no bound: it reads a category + tag +
 * field-value page by the obvious single statement (driven by the tag's links in the
 * category), which frontdesk, planning such lists by the counts of their filters, beats.
 */

/** One recorded answer: status, headers as sent (Node adds date and connection itself), body. */
export interface RecordedReply {
  status: number
  headers: Record<string, string>
  bodyBase64: string
}

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { reply: { type: 'string' }, async: { type: 'boolean' }, floor: { type: 'string' }, db: { type: 'string' }, tenant: { type: 'string' } },
})
const [certPath, keyPath] = positionals
if (certPath === undefined || keyPath === undefined) throw new Error('usage: ceiling-server.ts CERT KEY [--reply FILE [--async] | --floor detail|list|filtered --db FILE --tenant CODE]')

/** A JSON body of exactly 1024 bytes, shaped like an API reply. */
function oneKilobyte(): Buffer {
  const base = { id: 'cnt_ceiling', title: 'A fixed answer', body: '' }
  const padding = 1024 - Buffer.byteLength(JSON.stringify(base))
  return Buffer.from(JSON.stringify({ ...base, body: 'x'.repeat(padding) }))
}

type Answer = (req: IncomingMessage) => { status: number; headers: OutgoingHttpHeaders; body: Buffer }

function fixedAnswer(): Answer {
  const recorded = values.reply === undefined ? null : (JSON.parse(readFileSync(values.reply, 'utf8')) as RecordedReply)
  const body = recorded === null ? oneKilobyte() : Buffer.from(recorded.bodyBase64, 'base64')
  const status = recorded?.status ?? 200
  const fixedHeaders: Record<string, string> = recorded?.headers ?? { 'content-type': 'application/json; charset=utf-8' }
  const hasRequestId = 'x-request-id' in fixedHeaders
  return () => {
    const headers: OutgoingHttpHeaders = { ...fixedHeaders, 'content-length': body.length }
    if (hasRequestId) headers['x-request-id'] = randomUUID()
    return { status, headers, body }
  }
}

const LIST_COLUMNS = ['id', 'slug', 'title', 'category_id', 'status', 'published_at', 'author_name', 'summary', 'version', 'created_at', 'updated_at', 'tag_ids'] as const

function floorAnswer(kind: string, dbPath: string, tenantCode: string): Answer {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true })
  db.pragma('cache_size = -65536')
  const tenant = db.prepare('SELECT id FROM tenants WHERE code = ?').pluck().get(tenantCode) as string | undefined
  if (tenant === undefined) throw new Error(`no tenant ${tenantCode}`)
  const json = (status: number, value: unknown) => {
    const body = Buffer.from(JSON.stringify(value))
    return { status, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }, body }
  }
  if (kind === 'detail') {
    const byId = db.prepare('SELECT * FROM contents WHERE tenant_id = ? AND id = ?')
    return (req) => {
      const url = req.url ?? '/'
      const row = byId.get(tenant, url.slice(url.lastIndexOf('/') + 1))
      return row === undefined ? json(404, { error: { code: 'not_found' } }) : json(200, row)
    }
  }
  if (kind === 'list') {
    const now = new Date().toISOString()
    // Every 20th key of the public order: where each page starts.
    const keys = db
      .prepare("SELECT published_at, id FROM contents WHERE tenant_id = ? AND status = 'published' AND published_at <= ? ORDER BY published_at DESC, id DESC")
      .raw()
      .all(tenant, now)
      .filter((_, i) => i % 20 === 19) as [string, string][]
    // Hint: every key is published by now, so the keyset bound implies `published_at <= now`
    // (SQLite seeks on one upper bound only: with both it would scan from now to the key).
    const page = db
      .prepare(`SELECT ${LIST_COLUMNS.join(', ')} FROM contents WHERE tenant_id = ? AND status = 'published' AND (published_at, id) < (?, ?) ORDER BY published_at DESC, id DESC LIMIT 21`)
      .raw()
    let next = 0
    return () => {
      const key = keys[next++ % keys.length] ?? ['9999', '']
      const rows = page.all(tenant, key[0], key[1]) as unknown[][]
      const items = rows.slice(0, 20).map((row) => Object.fromEntries(LIST_COLUMNS.map((column, i) => [column, row[i]])))
      return json(200, { items, pagination: { next_cursor: rows.length > 20 ? 'more' : null } })
    }
  }
  if (kind === 'filtered') {
    // `?category_code=&tags=&field_filters=field:value`: the item's links to the tag within the
    // category, each item checked for the field value, newest first (one statement). The `+`s
    // keep SQLite from scanning a covering list index per link instead of reading the item.
    const categories = new Map(db.prepare('SELECT code, id FROM categories WHERE tenant_id = ?').raw().all(tenant) as [string, string][])
    const tags = new Map(db.prepare('SELECT name, id FROM tags WHERE tenant_id = ?').raw().all(tenant) as [string, string][])
    const page = db
      .prepare(
        `SELECT ${LIST_COLUMNS.map((c) => `c.${c}`).join(', ')} FROM content_tags t CROSS JOIN contents c ON c.tenant_id = t.tenant_id AND c.id = t.content_id
          WHERE t.tenant_id = ? AND t.tag_id = ? AND t.category_id = ? AND +c.status = 'published' AND +c.published_at <= ?
            AND EXISTS (SELECT 1 FROM content_fields f WHERE f.tenant_id = c.tenant_id AND f.content_id = c.id AND f.field_id = ? AND f.value_text = ?)
          ORDER BY c.published_at DESC, c.id DESC LIMIT 21`,
      )
      .raw()
    return (req) => {
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '')
      const [field = '', value = ''] = (query.get('field_filters') ?? '').split(/:(.*)/s)
      const rows = page.all(tenant, tags.get(query.get('tags') ?? '') ?? '', categories.get(query.get('category_code') ?? '') ?? '', new Date().toISOString(), field, value) as unknown[][]
      const items = rows.slice(0, 20).map((row) => Object.fromEntries(LIST_COLUMNS.map((column, i) => [column, row[i]])))
      return json(200, { items, pagination: { next_cursor: rows.length > 20 ? 'more' : null } })
    }
  }
  throw new Error(`--floor must be detail, list or filtered, not ${kind}`)
}

const answer = values.floor === undefined ? fixedAnswer() : floorAnswer(values.floor, values.db ?? '', values.tenant ?? '')

const server = https.createServer({ cert: readFileSync(certPath), key: readFileSync(keyPath), minVersion: 'TLSv1.2', keepAliveTimeout: 5_000 }, (req, res) => {
  // Read (and drop) any request body before answering, as a real handler must.
  req.resume()
  req.on('end', () => {
    const send = () => {
      const { status, headers, body } = answer(req)
      res.writeHead(status, headers)
      res.end(body)
    }
    // Hint: `--async` answers from a promise callback, as a handler written against an asynchronous port does.
    if (values.async === true) void Promise.resolve().then(send)
    else send()
  })
})
server.keepAliveTimeout = 5_000
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port })
})
process.on('disconnect', () => process.exit(0))
process.on('SIGTERM', () => process.exit(0))

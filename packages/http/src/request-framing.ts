import type { IncomingMessage } from 'node:http'
import type { ErrorDetail } from '@frontdesk/core'

/**
 * What is wrong with how a request is framed, before anything in it is read: it is not
 * HTTP/1.x (an `HTTP/2.0` or `HTTP/0.9` request line, which node:http parses), or it names
 * its `Host` more than once (RFC 9112 §3.2: two hosts are two readings of one request, which is
 * how a proxy and a server are made to disagree). `null` when nothing is.
 */
export function framingProblem(request: IncomingMessage): ErrorDetail | null {
  if (request.httpVersionMajor !== 1) return { field: 'request', message: `HTTP/${request.httpVersion} is not supported: use HTTP/1.1` }
  const raw = request.rawHeaders
  let hosts = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? ''
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) return { field: 'host', message: 'must be given once' }
  }
  return null
}

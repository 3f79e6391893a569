import type { IncomingHttpHeaders } from 'node:http'

/**
 * The request body as `handle` receives it: the bytes already read, `null` for none, or a
 * reader `handle` calls only once the request is authorised. The reader must reject with a
 * `PAYLOAD_TOO_LARGE` `FrontdeskError` as soon as more than `limit` bytes arrive, without
 * buffering the rest.
 */
export type BodySource = Buffer | null | ((limit: number) => Promise<Buffer>)

/** A request, independent of `node:http`: what `handle` needs and nothing more. */
export interface HttpRequest {
  method: string
  /** The request target in origin form: path and query, e.g. `/v1/cms/contents?limit=5`. */
  url: string
  /** Header names in lower case, as `node:http` gives them. */
  headers: IncomingHttpHeaders
  body: BodySource
  /** Whether the client's connection is HTTPS: a TLS socket, or a trusted proxy said so. */
  secure: boolean
  /**
   * Whether a plain connection came from a trusted proxy (which then did not say
   * `X-Forwarded-Proto: https`); only makes the `HTTPS_REQUIRED` message say so.
   */
  fromTrustedProxy?: boolean
  /**
   * The client's address, for logs and the per-address limit on failed authentications: the
   * socket's peer, or the `X-Forwarded-For` client a trusted proxy reports.
   */
  remoteAddress?: string | null
}

/** A response, ready to be written by any transport. */
export interface HttpResponse {
  status: number
  /** Header names in lower case. `content-length` is left to the transport. */
  headers: Record<string, string>
  body: Buffer
  /** Who made the request, once its key was recognised (for the access log): tenant code and key id. */
  caller?: { tenant: string; keyId: string }
  /**
   * The endpoint that answered, as a template (`/v1/cms/contents/{id}`, `/healthz`); absent for
   * a path no endpoint has. For metrics, whose labels must stay few.
   */
  route?: string
  /** The error code of an error answer (`RATE_LIMITED`, `UNAUTHORIZED`…), for metrics. */
  code?: string
}

import type { IncomingMessage } from 'node:http'
import { ValidationError } from '@frontdesk/core'
import { payloadTooLarge } from './handle.ts'

/** Reads a request body for `handle`, and remembers whether it did. */
export interface BodyReader {
  /** Resolves with the whole body; rejects with 413 as soon as more than `limit` bytes arrive. */
  read(limit: number): Promise<Buffer>
  /** Whether the body was read to its end (otherwise the connection cannot be reused). */
  readonly complete: boolean
}

/**
 * A reader of `request`'s body that counts bytes as they stream in and stops reading at the
 * first byte over the limit, so that a huge body is never buffered. `beforeRead` runs once,
 * before the first read (the place to send `100 Continue`: only a request that passed every
 * check before its body is invited to send it).
 */
export function bodyReader(request: IncomingMessage, beforeRead?: () => void): BodyReader {
  let complete = false
  let started = false
  return {
    get complete() {
      return complete
    },
    read(limit) {
      if (!started) {
        started = true
        beforeRead?.()
      }
      return new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = []
        let size = 0
        const cleanup = () => {
          request.off('data', onData)
          request.off('end', onEnd)
          request.off('error', onAbort)
          request.off('close', onAbort)
        }
        const onData = (chunk: Buffer) => {
          size += chunk.length
          if (size > limit) {
            cleanup()
            request.pause()
            reject(payloadTooLarge(limit))
            return
          }
          chunks.push(chunk)
        }
        const onEnd = () => {
          cleanup()
          complete = true
          resolve(Buffer.concat(chunks, size))
        }
        const onAbort = () => {
          cleanup()
          // The client went away mid-body; nobody will read the answer, but it must not be a 500.
          reject(new ValidationError([{ field: 'body', message: 'request body was incomplete' }]))
        }
        if (request.destroyed || request.readableEnded) {
          onAbort()
          return
        }
        request.on('data', onData)
        request.on('end', onEnd)
        request.on('error', onAbort)
        request.on('close', onAbort)
      })
    },
  }
}

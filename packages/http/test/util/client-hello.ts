import { Duplex } from 'node:stream'
import * as tls from 'node:tls'

/**
 * The bytes of a real TLS ClientHello for `localhost`, as Node's client sends it first: a TLS
 * client is run over a stream that only records what it writes and never answers.
 */
export function clientHello(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const recorder = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        resolve(Buffer.from(chunk))
        done()
      },
    })
    const client = tls.connect({ socket: recorder, servername: 'localhost', rejectUnauthorized: false })
    client.on('error', () => {})
    setTimeout(() => reject(new Error('no ClientHello was written')), 2_000).unref()
    // Hint: the recording is all that is needed; the client is dropped once it has written.
    void Promise.resolve().then(() => setTimeout(() => client.destroy(), 50).unref())
  })
}

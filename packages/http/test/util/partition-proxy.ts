import * as net from 'node:net'
import type { AddressInfo } from 'node:net'

/** A TCP proxy on 127.0.0.1 that can be cut off from its target like a network partition. */
export interface PartitionProxy {
  /** The proxy's port. */
  port: number
  /**
   * Partitions: nothing passes either way and nothing is refused or reset. Connections stay
   * open and new ones are accepted, their bytes held back, as packets are lost in a real
   * partition and TCP keeps retrying.
   */
  cut(): void
  /** Heals: what was held back is delivered, and bytes flow again. */
  heal(): void
  close(): Promise<void>
}

/** Starts a proxy to `127.0.0.1:targetPort`. */
export async function startPartitionProxy(targetPort: number): Promise<PartitionProxy> {
  let partitioned = false
  const held: Array<() => void> = []
  const sockets = new Set<net.Socket>()
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (partitioned) held.push(() => to.write(chunk))
      else to.write(chunk)
    })
    from.on('end', () => (partitioned ? held.push(() => to.end()) : to.end()))
    from.on('error', () => to.destroy())
    from.on('close', () => to.destroy())
  }
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1')
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    }
    forward(client, upstream)
    forward(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      partitioned = true
    },
    heal() {
      partitioned = false
      for (const deliver of held.splice(0)) deliver()
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

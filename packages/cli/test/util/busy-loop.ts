import type { DeliveryPacer } from '../../src/webhooks/delivery-pacer.ts'

/**
 * Keeps this process's event loop busy for `ms`, as a saturating API load would: it spins in
 * 10 ms slices, polling I/O between them (so deliveries still progress), and notes a request
 * per slice when `requests`.
 */
export async function spin(ms: number, pacer: DeliveryPacer, requests: boolean): Promise<void> {
  const until = performance.now() + ms
  while (performance.now() < until) {
    const slice = performance.now() + 10
    while (performance.now() < slice);
    if (requests) pacer.noteRequest()
    await new Promise((resolve) => setImmediate(resolve))
  }
}

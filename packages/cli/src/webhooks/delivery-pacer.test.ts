import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { spin } from '../../test/util/busy-loop.ts'
import { DeliveryPacer } from './delivery-pacer.ts'

test('the pacer: idle, or busy without requests (a backlog alone), attempts start at once; busy with requests, one per gap', async () => {
  const pacer = new DeliveryPacer({ windowMs: 40, gapMs: 30 })
  try {
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.is(pacer.busy, false)
    assert.is(pacer.pace(), undefined)
    await spin(150, pacer, false)
    assert.is(pacer.busy, false, 'a loop busy without requests is not held back')
    await spin(150, pacer, true)
    assert.is(pacer.busy, true)
    const asked = performance.now()
    const waits = [pacer.pace(), pacer.pace(), pacer.pace()]
    assert.is(waits[0], undefined, 'the first attempt starts at once')
    const starts = await Promise.all(waits.map(async (wait) => {
      await wait
      return performance.now() - asked
    }))
    assert.ok((starts[1] ?? 0) >= 28 && (starts[2] ?? 0) >= 58, `started at ${starts.map(Math.round).join(', ')} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.is(pacer.busy, false, 'a quiet window ends it')
    assert.is(pacer.pace(), undefined)
  } finally {
    pacer.close()
  }
})

test('the pacer: requests queueing while the loop idles (an API waiting on its disk) are a busy API; answered soon they are not', async () => {
  const pacer = new DeliveryPacer({ windowMs: 40, gapMs: 30, busyDepth: 8 })
  /** For 150 ms, a request arrives every 2 ms while the loop idles and finds `waiting` others unanswered (the oldest is answered then). */
  const traffic = async (waiting: number) => {
    const open: { answered: () => void }[] = []
    const ends = performance.now() + 150
    while (performance.now() < ends) {
      open.push(pacer.noteRequest())
      if (open.length > waiting) open.shift()?.answered()
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    for (const request of open) request.answered()
  }
  try {
    await traffic(12)
    assert.is(pacer.busy, true, 'each request found 12 others unanswered')
    await traffic(4)
    assert.is(pacer.busy, false, 'each request found 4 others unanswered')
    const request = pacer.noteRequest()
    request.answered()
    // Hint: answering twice must not count a request out twice (the depth would go below what is unanswered).
    request.answered()
    await traffic(8)
    assert.is(pacer.busy, true, 'each request found 8 others unanswered')
  } finally {
    pacer.close()
  }
})

test.run()

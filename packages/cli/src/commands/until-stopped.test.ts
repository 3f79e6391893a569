import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { untilStopped } from './serve.ts'

test('untilStopped returns at once for a signal aborted before the wait began', async () => {
  const controller = new AbortController()
  controller.abort()
  const outcome = await Promise.race([untilStopped(controller.signal).then(() => 'stopped'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 500))])
  assert.is(outcome, 'stopped')
})

test('untilStopped returns when the signal aborts later, and not before', async () => {
  const controller = new AbortController()
  let stopped = false
  const waiting = untilStopped(controller.signal).then(() => void (stopped = true))
  await new Promise((resolve) => setTimeout(resolve, 50))
  assert.is(stopped, false)
  controller.abort()
  await waiting
  assert.is(stopped, true)
})

test.run()

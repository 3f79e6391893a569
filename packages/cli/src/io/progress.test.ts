import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { bufferOutput } from '../env.ts'
import { progressLine } from './progress.ts'

test('on a terminal, the line is redrawn at most every 250 ms with the rate, and cleared at the end', () => {
  const out = bufferOutput(true)
  let now = 0
  const progress = progressLine(out, 'imported', () => now)
  now = 100
  progress.update(500)
  assert.is(out.text(), '', 'not before 250 ms')
  now = 1000
  progress.update(12_000)
  assert.is(out.text(), '\r\u001b[Kimported 12,000 records (12,000/s)')
  now = 1100
  progress.update(13_000)
  assert.is(out.text(), '\r\u001b[Kimported 12,000 records (12,000/s)')
  progress.done()
  assert.ok(out.text().endsWith('\r\u001b[K'))
})

test('elsewhere (a pipe, a file, CI) nothing is written at all', () => {
  const out = bufferOutput(false)
  let now = 0
  const progress = progressLine(out, 'imported', () => now)
  now = 10_000
  progress.update(1)
  progress.done()
  assert.is(out.text(), '')
})

test('a run too short to draw anything clears nothing', () => {
  const out = bufferOutput(true)
  const progress = progressLine(out, 'imported', () => 0)
  progress.update(1)
  progress.done()
  assert.is(out.text(), '')
})

test.run()

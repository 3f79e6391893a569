import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createLineBuffer } from './access-log.ts'

const turn = () => new Promise((resolve) => setImmediate(resolve))

test('lines pushed in one turn of the event loop are written together, in order, on the next', async () => {
  const writes: string[] = []
  const buffer = createLineBuffer((text) => writes.push(text))
  buffer.push('a\n')
  buffer.push('b\n')
  assert.equal(writes, [])
  await turn()
  assert.equal(writes, ['a\nb\n'])
  buffer.push('c\n')
  await turn()
  assert.equal(writes, ['a\nb\n', 'c\n'])
})

test('a full buffer is written at once, and flush writes what waits', () => {
  const writes: string[] = []
  const buffer = createLineBuffer((text) => writes.push(text), 4)
  buffer.push('ab\n')
  buffer.push('cd\n')
  assert.equal(writes, ['ab\ncd\n'])
  buffer.push('e\n')
  buffer.flush()
  assert.equal(writes, ['ab\ncd\n', 'e\n'])
  buffer.flush()
  assert.is(writes.length, 2)
})

test('a throwing writer loses its batch but not the next one', async () => {
  const writes: string[] = []
  let fail = true
  const buffer = createLineBuffer((text) => {
    if (fail) throw new Error('disk full')
    writes.push(text)
  })
  buffer.push('lost\n')
  await turn()
  fail = false
  buffer.push('kept\n')
  await turn()
  assert.equal(writes, ['kept\n'])
})

test.run()

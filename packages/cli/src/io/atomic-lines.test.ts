import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { PIPE_BUF, writeAtomicLines } from './atomic-lines.ts'

function written(text: string): string[] {
  const writes: string[] = []
  writeAtomicLines({ write: (chunk: string) => writes.push(chunk) }, text)
  return writes
}

test('a batch that fits one atomic write is written at once', () => {
  assert.equal(written('a\nb\n'), ['a\nb\n'])
})

test('a larger batch is cut at line ends into writes of at most PIPE_BUF bytes, nothing lost or reordered', () => {
  const lines = Array.from({ length: 500 }, (_, i) => `${JSON.stringify({ i, path: '/v1/cms/contents/' + 'é'.repeat(i % 40) })}\n`)
  const writes = written(lines.join(''))
  assert.ok(writes.length > 1)
  for (const chunk of writes) {
    assert.ok(Buffer.byteLength(chunk) <= PIPE_BUF, `${Buffer.byteLength(chunk)} bytes`)
    assert.ok(chunk.endsWith('\n'))
  }
  assert.is(writes.join(''), lines.join(''))
})

test('a line longer than PIPE_BUF is written alone, whole', () => {
  const long = `${'x'.repeat(PIPE_BUF + 10)}\n`
  assert.equal(written(`a\n${long}b\n`), ['a\n', long, 'b\n'])
})

test.run()

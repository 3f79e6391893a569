import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fileSpill } from './list-spill.ts'

test('a spill reads back what was written, anywhere in it, and leaves no file behind, even while open', () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-spill-test-'))
  try {
    const spill = fileSpill(dir)
    assert.equal(readdirSync(dir), [], 'nothing named while open')
    const first = Uint32Array.from({ length: 1000 }, (_, i) => i * 7)
    const second = Uint32Array.from([0xffffffff, 0, 1])
    assert.is(spill.write(first), 0)
    assert.is(spill.write(second.subarray(0, 2)), 1000)
    assert.equal(Array.from(spill.read(0, 1000)), Array.from(first))
    assert.equal(Array.from(spill.read(1000, 2)), [0xffffffff, 0])
    assert.equal(Array.from(spill.read(998, 3)), [998 * 7, 999 * 7, 0xffffffff])
    assert.throws(() => spill.read(1000, 3), /ended early/)
    spill.close()
    assert.equal(readdirSync(dir), [])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

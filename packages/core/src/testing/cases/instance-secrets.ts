import * as assert from 'uvu/assert'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** `instanceSecret`: created once, atomically, then the same for every caller. */
export function instanceSecretCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: instance secrets`, open)
  const first = 'c2VjcmV0LW9uZS1hYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAx'
  const second = 'c2VjcmV0LXR3by1BQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWjAx'

  s('the first candidate is stored as given and returned to every later call, whatever its candidate', async ({ store }) => {
    assert.is(await store.instanceSecret('cursor-hmac', first), first)
    assert.is(await store.instanceSecret('cursor-hmac', second), first)
    assert.is(await store.instanceSecret('cursor-hmac', first), first)
  })

  s('names are independent of one another and of tenants', async ({ store }) => {
    assert.is(await store.instanceSecret('a', first), first)
    assert.is(await store.instanceSecret('b', second), second)
    assert.is(await store.instanceSecret('a', second), first)
    assert.equal(await store.listTenants(), [])
  })

  s('calls racing on a name all get one and the same candidate', async ({ store }) => {
    const candidates = Array.from({ length: 8 }, (_, i) => `candidate-${i}-${first}`)
    const got = await Promise.all(candidates.map((candidate) => store.instanceSecret('raced', candidate)))
    assert.is(new Set(got).size, 1)
    assert.ok(candidates.includes(got[0] ?? ''), 'the winner is one of the candidates')
    assert.is(await store.instanceSecret('raced', second), got[0])
  })
}

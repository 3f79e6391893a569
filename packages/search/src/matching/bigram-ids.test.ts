import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BigramIds } from './bigram-ids.ts'

test('every bigram keeps the id made for it when first seen, through the table\u2019s growth', () => {
  const made: string[] = []
  const bigrams = new BigramIds((gram) => made.push(gram) - 1)
  // 20,000 distinct bigrams of kana and kanji: the table (4,096 slots) doubles several times.
  const pairs: [number, number][] = []
  for (let i = 0; i < 20_000; i++) pairs.push([0x3041 + (i % 90), 0x4e00 + Math.floor(i / 90)])
  const ids = pairs.map(([first, second]) => bigrams.idOf(first, second))
  assert.is(made.length, 20_000)
  for (const [i, [first, second]] of pairs.entries()) {
    assert.is(bigrams.idOf(first, second), ids[i])
    assert.is(made[ids[i] ?? -1], String.fromCharCode(first, second))
  }
  assert.is(made.length, 20_000, 'a bigram seen before makes no new term')
})

test.run()

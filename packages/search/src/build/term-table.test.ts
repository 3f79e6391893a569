import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { TermTable } from './term-table.ts'

test('terms are numbered in the order first looked up, by slice or whole, as a Map would number them', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 6, unit: fc.constantFrom('a', 'b', 'é', '移', '転', 'x', '1') }), { maxLength: 400 }), (words) => {
      const made: [number, string][] = []
      const table = new TermTable((id, term) => made.push([id, term]))
      const expected = new Map<string, number>()
      const text = words.join(' ')
      let at = 0
      for (const [i, word] of words.entries()) {
        if (!expected.has(word)) expected.set(word, expected.size)
        // Alternately by the slice of the joined text and by the word itself: one numbering.
        const id = i % 2 === 0 ? table.idOfSlice(text, at, at + word.length) : table.idOf(word)
        assert.is(id, expected.get(word), word)
        at += word.length + 1
      }
      assert.equal(table.terms, [...expected.keys()])
      assert.equal(made, [...expected.entries()].map(([term, id]) => [id, term]))
    }),
    { numRuns: 300 },
  )
})

test('many terms (the table grows, hashes collide in slots) keep their ids', () => {
  const table = new TermTable(() => undefined)
  const terms = Array.from({ length: 50_000 }, (_, i) => `t${i.toString(36)}`)
  terms.forEach((term, i) => assert.is(table.idOf(term), i))
  terms.forEach((term, i) => assert.is(table.idOfSlice(`  ${term}.`, 2, 2 + term.length), i))
  assert.is(table.idOf(''), terms.length)
})

test.run()

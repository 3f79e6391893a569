import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { duplicateJsonKey } from './duplicate-keys.ts'

/** A JSON value as written, objects as their members in order (so that a key may repeat). */
type Doc = null | boolean | number | string | Doc[] | { members: [string, Doc][] }

const KEYS = ['a', 'b', 'query', 'é', 'a.b', '"q"', 'x\\y', '']
const doc: fc.Arbitrary<Doc> = fc.letrec<{ doc: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 6 }),
    fc.array(tie('doc'), { maxLength: 4 }),
    fc.array(fc.tuple(fc.constantFrom(...KEYS), tie('doc')), { maxLength: 4 }).map((members) => ({ members })),
  ),
})).doc

/** Writes `value` with `space` around tokens, each key plain or escaped character by character. */
function write(value: Doc, space: string, escape: boolean): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${space}${value.map((item) => write(item, space, escape)).join(`${space},${space}`)}${space}]`
  const key = (name: string) => (escape ? `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"` : JSON.stringify(name))
  return `{${space}${value.members.map(([name, item]) => `${key(name)}${space}:${space}${write(item, space, escape)}`).join(`${space},${space}`)}${space}}`
}

/** The slow and obvious answer: walk the document in order, each object with the keys it has seen. */
function firstDuplicate(value: Doc, path: string): string | null {
  if (value === null || typeof value !== 'object') return null
  const at = (part: string) => (path === '' ? part : `${path}.${part}`)
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstDuplicate(item, at(String(i)))
      if (found !== null) return found
    }
    return null
  }
  const seen = new Set<string>()
  for (const [name, item] of value.members) {
    if (seen.has(name)) return at(name)
    seen.add(name)
    const found = firstDuplicate(item, at(name))
    if (found !== null) return found
  }
  return null
}

test('finds the first repeated key, by its path, as a walk of the document does', () => {
  fc.assert(
    fc.property(doc, fc.constantFrom('', ' ', '\n\t'), fc.boolean(), (value, space, escape) => {
      const text = write(value, space, escape)
      JSON.parse(text)
      assert.is(duplicateJsonKey(text), firstDuplicate(value, ''), text)
    }),
    { numRuns: 3_000 },
  )
})

test('any JSON a serialiser writes (no key twice) has none', () => {
  fc.assert(fc.property(fc.jsonValue(), (value) => assert.is(duplicateJsonKey(JSON.stringify(value)), null)), { numRuns: 1_000 })
})

test('examples: top level, nested, in arrays, escaped, and look-alikes that are not repeats', () => {
  assert.is(duplicateJsonKey('{"query":"a","query":"b"}'), 'query')
  assert.is(duplicateJsonKey('{"filter":{"custom_price":1,"custom_price":{"gte":2}}}'), 'filter.custom_price')
  assert.is(duplicateJsonKey('[{"a":1},{"b":1,"b":2}]'), '1.b')
  assert.is(duplicateJsonKey('{"a":1,"\\u0061":2}'), 'a')
  assert.is(duplicateJsonKey('{"a":{"a":1},"b":["a","a"],"c":"\\"a\\":1,\\"a\\":2"}'), null)
  assert.is(duplicateJsonKey('{"x\\\\":1,"x\\\\":2}'), 'x\\')
})

test.run()

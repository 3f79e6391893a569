import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openApiTypes } from './openapi-types.ts'

const declarations = (schemas: Record<string, unknown>) => openApiTypes({ components: { schemas } }).split('\n').slice(4).join('\n')

test('an object schema is an interface: required and optional properties, descriptions as JSDoc', () => {
  const out = declarations({
    Item: {
      type: 'object',
      description: 'An item.',
      properties: { id: { type: 'string', description: 'Its id.' }, 'odd-key': { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['id', 'odd-key'],
      additionalProperties: false,
    },
  })
  assert.is(out, `/** An item. */\nexport interface Item {\n  /** Its id. */\n  id: string\n  "odd-key": number\n  tags?: string[]\n}\n`)
})

test('refs, unions, nullables, enums, consts and the rest of an object', () => {
  const out = declarations({
    Value: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    Holder: {
      type: 'object',
      properties: {
        value: { anyOf: [{ $ref: '#/components/schemas/Value' }, { type: 'null' }] },
        kind: { enum: ['a', "it's"] },
        status: { const: 'open' },
        list: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
        either: { type: ['string', 'boolean'] },
      },
      required: ['value', 'kind', 'status', 'list', 'either'],
      additionalProperties: { $ref: '#/components/schemas/Value' },
    },
    Open: { type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'] },
    Map: { type: 'object', additionalProperties: { type: 'string' } },
  })
  assert.ok(out.includes('export type Value = string | number\n'), out)
  assert.ok(out.includes("  value: Value | null\n  kind: 'a' | 'it\\'s'\n  status: 'open'\n  list: (string | null)[]\n  either: string | boolean\n  [key: string]: Value\n}"), out)
  assert.ok(out.includes('export interface Open {\n  a: boolean\n  [key: string]: unknown\n}'), out)
  assert.ok(out.includes('export interface Map { [key: string]: string }'), out)
})

test.run()

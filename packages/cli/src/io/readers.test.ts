import fc from 'fast-check'
import { Readable } from 'node:stream'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ImportItem } from '@frontdesk/core'
import { FrontdeskError, UsageError } from '@frontdesk/core'
import { readJsonDocument } from './read-json-document.ts'
import { MAX_NDJSON_LINE_BYTES, readNdjson } from './read-ndjson.ts'

async function all(items: AsyncIterable<ImportItem>): Promise<ImportItem[]> {
  const out: ImportItem[] = []
  for await (const item of items) out.push(item)
  return out
}

async function failure(items: AsyncIterable<ImportItem>): Promise<Error> {
  try {
    await all(items)
  } catch (error) {
    if (error instanceof Error) return error
  }
  throw new Error('expected the reader to fail')
}

/** `text` as a stream of chunks of `size` bytes, cutting through multi-byte characters. */
function chunked(text: string, size: number): Readable {
  const bytes = Buffer.from(text)
  const chunks: Buffer[] = []
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size))
  return Readable.from(chunks)
}

const ndjson = suite('readNdjson')

ndjson('reads one record a line, located by line number, skipping blank lines and a BOM', async () => {
  const items = await all(readNdjson(chunked('\uFEFF{"kind":"tag","name":"a"}\r\n\n  \n{"kind":"tag","name":"日本"}\n', 3)))
  assert.equal(items, [
    { record: { kind: 'tag', name: 'a' }, location: 'line 1' },
    { record: { kind: 'tag', name: '日本' }, location: 'line 4' },
  ])
})

ndjson('a line that is not JSON is named by its line and column (in characters), as in a JSON document', async () => {
  const error = await failure(readNdjson(chunked('{"kind":"tag","name":"a"}\n{"kind": tag}\n', 7)))
  assert.instance(error, UsageError)
  assert.is(error.message, 'line 2, column 11: not valid JSON: unexpected "a"')
  const cases: [string, string][] = [
    ['{"name":"日本"x}', 'line 1, column 13: not valid JSON: unexpected "x"'],
    ['{"a":1,}', 'line 1, column 8: not valid JSON: unexpected "}"'],
    ['\uFEFF  {"a" 1}\r', 'line 1, column 8: not valid JSON: unexpected "1"'],
    ["{'a':1}", 'line 1, column 2: not valid JSON: unexpected "\'"'],
    ['{"a":1}{"b":2}', 'line 1, column 8: not valid JSON: unexpected "{"'],
    ['{"a":[1,2', 'line 1: not valid JSON: the line ends before the value does'],
    ['{"a":"x', 'line 1: not valid JSON: the line ends in the middle of a value'],
  ]
  for (const [line, message] of cases) assert.is((await failure(readNdjson(chunked(`${line}\n`, 3)))).message, message, line)
})

ndjson('a line longer than the bound is refused as soon as the bound is passed, not at its end', async () => {
  // A 300 MB line without a break, generated lazily: the reader must stop after ~64 MiB.
  const chunk = Buffer.alloc(1024 * 1024, 'a')
  let pulled = 0
  async function* endless() {
    yield Buffer.from('{"kind":"tag","name":"a"}\n')
    for (; pulled < 300; pulled++) yield chunk
  }
  const error = await failure(readNdjson(Readable.from(endless())))
  assert.instance(error, UsageError)
  assert.is(error.message, 'line 2: longer than 64 MiB, the longest line read; is the file NDJSON (one record a line)?')
  assert.ok(pulled <= MAX_NDJSON_LINE_BYTES / chunk.length + 1, `read ${pulled} MiB`)
})

ndjson('lines up to the bound are read whole, across chunks, with CRLF', async () => {
  const line = JSON.stringify({ kind: 'tag', name: 'x'.repeat(40) })
  const items = await all(readNdjson(chunked(`${line}\r\n${line}`, 5), { maxLineBytes: line.length + 1 }))
  assert.is(items.length, 2)
  const error = await failure(readNdjson(chunked(`${line}\n${line}x\n`, 5), { maxLineBytes: line.length }))
  assert.match(error.message, /^line 2: longer than \d+ bytes/)
})

ndjson.run()

const json = suite('readJsonDocument')

const doc = {
  categories: [{ code: 'news', name: 'ニュース' }],
  tags: [{ name: 't' }, { kind: 'tag', name: 'u' }],
  contents: [{ slug: 'a', title: 'A' }],
  inquiry_categories: [],
}

json('yields each element of each section with its kind, located as section[index]', async () => {
  const items = await all(readJsonDocument(chunked(JSON.stringify(doc, null, 2), 5)))
  assert.equal(items, [
    { record: { code: 'news', name: 'ニュース', kind: 'category' }, location: 'categories[0]' },
    { record: { name: 't', kind: 'tag' }, location: 'tags[0]' },
    { record: { kind: 'tag', name: 'u' }, location: 'tags[1]' },
    { record: { slug: 'a', title: 'A', kind: 'content' }, location: 'contents[0]' },
  ])
})

json('non-object elements are passed on for the import to refuse with their location', async () => {
  assert.equal(await all(readJsonDocument(chunked('{"tags":[1,"x"]}', 4))), [
    { record: 1, location: 'tags[0]' },
    { record: 'x', location: 'tags[1]' },
  ])
})

json('documents of the wrong shape are refused with one clear message', async () => {
  const cases: [string, RegExp][] = [
    ['[]', /^line 1, column 1: the JSON document must be an object/],
    ['', /^the JSON document is empty/],
    ['{"posts":[]}', /^line 1, column \d+: posts: not a known section/],
    ['{"tags":{}}', /^line 1, column 9: tags: must be an array/],
    ['{"tags":5}', /^line 1, column 9: tags: must be an array/],
    ['{"tags":[{"kind":"content"}]}', /^tags\[0\]: kind: must be "tag" in the tags section/],
    ['{"tags":[{"name":"a"}', /^line 1: the JSON document ends before its last bracket$/],
    ['{"tags":[{"name":"a', /^line 1: the JSON document ends in the middle of a value$/],
    ['{"tags":[{"name":"a"},]}', /^line 1, column 23: not valid JSON: unexpected "\]"$/],
  ]
  for (const [text, message] of cases) {
    const error = await failure(readJsonDocument(chunked(text, 3)))
    assert.instance(error, UsageError, text)
    assert.match(error.message, message, text)
  }
})

json('invalid JSON is named by line and column (in characters), not by the parser\'s state', async () => {
  const text = '{\n  "tags": [\n    {"name": "日本"},\n    {"name": x}\n  ]\n}\n'
  for (const size of [1, 3, 4096]) {
    const error = await failure(readJsonDocument(chunked(text, size)))
    assert.is(error.message, 'line 4, column 14: not valid JSON: unexpected "x"')
    assert.not.match(error.message, /state|position/)
  }
})

json('NDJSON in a .json file gets a hint to import it as NDJSON', async () => {
  const ndjson = '{"kind":"category","code":"news","name":"News"}\n{"kind":"tag","name":"a"}\n'
  const records = await failure(readJsonDocument(chunked(ndjson, 4096)))
  assert.match(records.message, /^line 1, column 2: kind: not a known section .*; is the file NDJSON \(one record with a "kind" a line\)\? Name it \.ndjson or pass --format ndjson$/)
  const two = await failure(readJsonDocument(chunked('{"tags":[]}\n{"tags":[]}\n', 5)))
  assert.match(two.message, /^line 2, column 1: more data after the end of the JSON document; is the file NDJSON/)
})

json('any document split into any chunks reads as JSON.parse reads it', async () => {
  const record = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
  const sections = fc.record(
    { categories: fc.array(record, { maxLength: 3 }), tags: fc.array(record, { maxLength: 3 }), contents: fc.array(record, { maxLength: 3 }) },
    { requiredKeys: [] },
  )
  await fc.assert(
    fc.asyncProperty(sections, fc.integer({ min: 1, max: 16 }), fc.boolean(), async (document, size, pretty) => {
      const text = JSON.stringify(document, null, pretty ? 1 : undefined)
      const items = await all(readJsonDocument(chunked(text, size)))
      const parsed = JSON.parse(text) as Record<string, Record<string, unknown>[]>
      const kinds: Record<string, string> = { categories: 'category', tags: 'tag', contents: 'content' }
      const expected: ImportItem[] = []
      for (const [section, list] of Object.entries(parsed)) {
        list.forEach((r, i) => {
          if (r['kind'] !== undefined && r['kind'] !== kinds[section]) return
          expected.push({ record: { ...r, kind: kinds[section] }, location: `${section}[${i}]` })
        })
      }
      // Records naming another kind make the reader fail; the rest must match exactly.
      if (expected.length === Object.values(parsed).flat().length) assert.equal(JSON.stringify(items), JSON.stringify(expected))
    }),
    { numRuns: 100 },
  )
})

json('garbage never fails with anything but a UsageError', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.string(), fc.json().map((j) => `{"tags":${j}`), fc.json()), fc.integer({ min: 1, max: 8 }), async (text, size) => {
      try {
        await all(readJsonDocument(chunked(text, size)))
      } catch (error) {
        assert.instance(error, FrontdeskError)
      }
    }),
    { numRuns: 200 },
  )
})

json.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ifNoneMatchMatches } from './if-none-match.ts'

test('If-None-Match matches lists, weak tags and *', () => {
  const etag = '"abc"'
  assert.ok(ifNoneMatchMatches('"abc"', etag))
  assert.ok(ifNoneMatchMatches('"x", "abc"', etag))
  assert.ok(ifNoneMatchMatches('W/"abc"', etag))
  assert.ok(ifNoneMatchMatches('*', etag))
  assert.not.ok(ifNoneMatchMatches('"abcd"', etag))
  assert.not.ok(ifNoneMatchMatches('abc', etag))
  assert.not.ok(ifNoneMatchMatches(undefined, etag))
})

test.run()

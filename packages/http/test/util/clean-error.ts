import * as assert from 'uvu/assert'
import type { TestResponse } from './test-server.ts'

/** Text that gives away a stack trace. */
const STACK = /\n\s+at |\bat .*\.(ts|js|mjs):\d+|node:internal|Error: /

/**
 * Asserts an error reply is CONTRACT §2's JSON (`{"error": {"code", "message"}}`), carries no
 * stack trace and none of `secrets` (file paths, SQL…).
 */
export function assertCleanError(response: TestResponse, secrets: string[] = []): void {
  const what = `${response.status} ${response.text.slice(0, 300)}`
  assert.ok(response.status >= 400, what)
  const body = response.body as { error?: { code?: unknown; message?: unknown } } | null
  assert.type(body?.error?.code, 'string', `no error.code: ${what}`)
  assert.type(body?.error?.message, 'string', `no error.message: ${what}`)
  assert.match(String(response.headers['content-type']), /^application\/json/, what)
  assert.not.match(response.text, STACK, `stack in ${what}`)
  for (const secret of secrets) assert.not.ok(response.text.includes(secret), `${JSON.stringify(secret)} leaked: ${what}`)
}

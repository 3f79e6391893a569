import type { ParsedTokenInfo } from '@streamparser/json'
import { TokenParser, Tokenizer, TokenType } from '@streamparser/json'
import type { ImportItem } from '@frontdesk/core'
import { groupDigits, UsageError } from '@frontdesk/core'

/**
 * The longest NDJSON line read, in bytes: far above any record frontdesk accepts (a body is at
 * most 2,000,000 characters, ~6 MB of UTF-8), small enough that a file without line breaks
 * (or a JSON document read as NDJSON) is refused before it fills the memory.
 */
export const MAX_NDJSON_LINE_BYTES = 64 * 1024 * 1024

/** Options of `readNdjson`. */
export interface ReadNdjsonOptions {
  /** Longest line in bytes; a longer one is refused as soon as it is passed. Default `MAX_NDJSON_LINE_BYTES`. */
  maxLineBytes?: number
}

/**
 * Reads NDJSON import records one line at a time (never the whole stream), located as
 * `line N` (1-based). Blank lines are skipped; a line that is not JSON is a `UsageError`
 * naming its line and column (as a JSON document's are), one longer than `maxLineBytes` too
 * (refused once that many bytes of it were read, without waiting for its end). Lines end with
 * LF or CRLF.
 */
export async function* readNdjson(input: AsyncIterable<Buffer | string>, options: ReadNdjsonOptions = {}): AsyncIterable<ImportItem> {
  const max = options.maxLineBytes ?? MAX_NDJSON_LINE_BYTES
  const decoder = new TextDecoder('utf-8', { fatal: false })
  let pending: Buffer[] = []
  let pendingBytes = 0
  let number = 0

  function* line(bytes: Buffer): Generator<ImportItem> {
    number++
    let text = decoder.decode(bytes)
    if (text.endsWith('\r')) text = text.slice(0, -1)
    // Hint: a UTF-8 byte-order mark may start the first line of a file saved by an editor.
    if (number === 1 && text.startsWith('\uFEFF')) text = text.slice(1)
    if (text.trim() === '') return
    let record: unknown
    try {
      record = JSON.parse(text)
    } catch (error) {
      throw new UsageError(`line ${number}${whereInvalid(text)}`, { cause: error })
    }
    yield { record, location: `line ${number}` }
  }

  const tooLong = () =>
    new UsageError(`line ${number + 1}: longer than ${formatBytes(max)}, the longest line read; is the file NDJSON (one record a line)?`)

  for await (const chunk of input) {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10)) {
      if (pendingBytes + end > max) throw tooLong()
      const whole = pending.length === 0 ? bytes.subarray(0, end) : Buffer.concat([...pending, bytes.subarray(0, end)])
      pending = []
      pendingBytes = 0
      yield* line(whole)
      bytes = bytes.subarray(end + 1)
    }
    if (bytes.length > 0) {
      pendingBytes += bytes.length
      if (pendingBytes > max) throw tooLong()
      pending.push(bytes)
    }
  }
  if (pendingBytes > 0) yield* line(Buffer.concat(pending))
}

/**
 * Where and why a line `JSON.parse` refused is not JSON, as `, column C: not valid JSON:
 * unexpected "x"` (column in characters, 1-based), from a token parser run over it: V8's own
 * messages give no position for some errors, and their wording changes between versions.
 */
function whereInvalid(text: string): string {
  const bytes = Buffer.from(text)
  const column = (offset: number) => bytes.subarray(0, Math.max(0, offset)).reduce((n, byte) => n + ((byte & 0xc0) === 0x80 ? 0 : 1), 1)
  const tokenizer = new Tokenizer()
  const parser = new TokenParser()
  parser.onValue = () => {}
  let failedAt: { offset: number; token: string } | null = null
  tokenizer.onToken = (info: ParsedTokenInfo) => {
    try {
      parser.write(info)
    } catch {
      failedAt ??= { offset: info.offset, token: JSON.stringify(bytes.subarray(info.offset, info.offset + Math.max(1, tokenLength(info))).toString()) }
      throw new Error('invalid')
    }
  }
  try {
    tokenizer.write(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    tokenizer.end()
  } catch (error) {
    if (failedAt !== null) {
      const { offset, token } = failedAt
      return `, column ${column(offset)}: not valid JSON: unexpected ${token}`
    }
    const message = error instanceof Error ? error.message : ''
    const unexpected = /^Unexpected (".*") at chunk position "\d+" \(absolute position "(\d+)"\)/.exec(message)
    if (unexpected !== null) return `, column ${column(Number(unexpected[2]))}: not valid JSON: unexpected ${unexpected[1]}`
    if (/ended in the middle of a token/.test(message)) return ': not valid JSON: the line ends in the middle of a value'
  }
  return parser.isEnded ? ': not valid JSON' : ': not valid JSON: the line ends before the value does'
}

/** The length in bytes of a token as the tokenizer gives it (a string token's value is unquoted). */
function tokenLength(info: ParsedTokenInfo): number {
  return info.token === TokenType.STRING ? Buffer.byteLength(JSON.stringify(info.value)) : String(info.value).length
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${groupDigits(bytes)} bytes`
}

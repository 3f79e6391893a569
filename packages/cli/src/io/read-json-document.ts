import type { ParsedElementInfo, ParsedTokenInfo } from '@streamparser/json'
import { TokenParser, Tokenizer, TokenType } from '@streamparser/json'
import type { ImportItem, RecordKind } from '@frontdesk/core'
import { UsageError } from '@frontdesk/core'

/** The sections of a JSON import document and the record kind of each. */
export const SECTIONS: Readonly<Record<string, RecordKind>> = {
  categories: 'category',
  tags: 'tag',
  contents: 'content',
  inquiry_categories: 'inquiry_category',
  synonyms: 'synonyms',
}

/** Says how to import NDJSON, for a `.json` file that holds it. */
const NDJSON_HINT = 'is the file NDJSON (one record with a "kind" a line)? Name it .ndjson or pass --format ndjson'

/**
 * Reads a JSON import document `{"categories": [...], "tags": [...], "contents": [...],
 * "inquiry_categories": [...], "synonyms": [...]}` (any section may be left out) as a stream: each array element is parsed on its own and
 * handed on, located as `contents[3]`, so the document is never held whole. Sections are read
 * in file order (put categories before the contents that use them). Each record gets the
 * `kind` of its section; a record naming another kind is refused. Invalid JSON is a
 * `UsageError` naming its line and column; NDJSON (a first key `kind`, or a second value
 * after the document) gets a hint to import it as NDJSON.
 */
export async function* readJsonDocument(input: AsyncIterable<Buffer | string>): AsyncIterable<ImportItem> {
  const ready: ImportItem[] = []
  const shape = new DocumentShape()
  const lines = new LineCounter()
  const tokenizer = new Tokenizer()
  const parser = new TokenParser({ paths: ['$.*.*'], keepStack: false })
  tokenizer.onToken = (info: ParsedTokenInfo) => {
    try {
      if (shape.complete) throw new UsageError(`more data after the end of the JSON document; ${NDJSON_HINT}`)
      shape.check(info)
      parser.write(info)
    } catch (error) {
      throw new LocatedError(error, info.offset)
    }
  }
  parser.onValue = (info: ParsedElementInfo) => {
    const section = shape.section
    if (section === null || typeof info.key !== 'number') return
    ready.push(sectionRecord(info.value, section, info.key))
  }
  try {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      lines.feed(bytes)
      tokenizer.write(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      // Hint: drain before the next chunk, so that at most one chunk's records wait in memory.
      for (const item of ready.splice(0)) yield item
    }
    if (!shape.started) throw new UsageError('the JSON document is empty')
    tokenizer.end()
    if (!shape.complete) throw new UsageError(`${lines.end()}: the JSON document ends before its last bracket`)
  } catch (error) {
    throw located(error, lines)
  }
  for (const item of ready.splice(0)) yield item
}

/** An error of the document's token at byte `offset`, located once it reaches the reader. */
class LocatedError extends Error {
  constructor(
    readonly error: unknown,
    readonly offset: number,
  ) {
    super('located')
  }
}

/** The `UsageError` to report for what the tokenizer, the parser or the shape check threw; a read error (`EACCES`…) as it is. */
function located(error: unknown, lines: LineCounter): unknown {
  if (error instanceof Error && typeof (error as { syscall?: unknown }).syscall === 'string') return error
  if (error instanceof LocatedError) {
    const where = lines.at(error.offset)
    const cause = error.error
    // Hint: a record's own error is located as `tags[0]` already, as the import's are.
    if (cause instanceof UsageError) return /^\w+\[\d+\]: /.test(cause.message) ? cause : new UsageError(`${where}: ${cause.message}`, { cause })
    // Hint: the token parser says "Unexpected COMMA (",") in state VALUE"; only the text counts.
    const text = /\((".*")\) in state/.exec(cause instanceof Error ? cause.message : '')?.[1]
    return new UsageError(`${where}: not valid JSON${text === undefined ? '' : `: unexpected ${text}`}`, { cause })
  }
  if (error instanceof UsageError) return error
  const message = error instanceof Error ? error.message : ''
  const unexpected = /^Unexpected (".*") at chunk position "\d+" \(absolute position "(\d+)"\)/.exec(message)
  if (unexpected !== null) return new UsageError(`${lines.at(Number(unexpected[2]))}: not valid JSON: unexpected ${unexpected[1]}`, { cause: error })
  if (/ended in the middle of a token/.test(message)) return new UsageError(`${lines.end()}: the JSON document ends in the middle of a value`, { cause: error })
  return new UsageError(`not a valid JSON document (${message || 'parse error'})`, { cause: error })
}

/**
 * Lines and columns of byte offsets in a stream read chunk by chunk. Keeps the last two
 * chunks (a token may start in the previous one); an offset before them is placed at the
 * start of the older one, the closest place known.
 */
class LineCounter {
  /** Offset, line and column (in characters, 1-based) where `#older` starts. */
  #start = 0
  #line = 1
  #column = 1
  #older: Buffer = Buffer.alloc(0)
  #newer: Buffer = Buffer.alloc(0)

  feed(chunk: Buffer): void {
    const moved = advance({ line: this.#line, column: this.#column }, this.#older, this.#older.length)
    this.#start += this.#older.length
    this.#line = moved.line
    this.#column = moved.column
    this.#older = this.#newer
    this.#newer = chunk
  }

  /** `line L, column C` of the byte at `offset`. */
  at(offset: number): string {
    const kept = Buffer.concat([this.#older, this.#newer])
    const place = advance({ line: this.#line, column: this.#column }, kept, Math.max(0, Math.min(offset - this.#start, kept.length)))
    return `line ${place.line}, column ${place.column}`
  }

  /** `line L`, the last line of what was read. */
  end(): string {
    const kept = Buffer.concat([this.#older, this.#newer])
    return `line ${advance({ line: this.#line, column: this.#column }, kept, kept.length).line}`
  }
}

function sectionRecord(value: unknown, section: string, index: number): ImportItem {
  const location = `${section}[${index}]`
  const kind = SECTIONS[section]
  if (typeof value !== 'object' || value === null || Array.isArray(value) || kind === undefined) return { record: value, location }
  const given = (value as { kind?: unknown }).kind
  if (given !== undefined && given !== kind) throw new UsageError(`${location}: kind: must be "${kind}" in the ${section} section (or left out)`)
  return { record: { ...value, kind }, location }
}

/**
 * Follows the tokens of the top two levels: the document must be an object whose keys are
 * known sections and whose values are arrays.
 */
class DocumentShape {
  started = false
  /** The section whose array is being read, else `null`. */
  section: string | null = null
  #depth = 0
  #expectKey = false
  #expectArray = false

  /** Whether the top-level object was closed. */
  get complete(): boolean {
    return this.started && this.#depth === 0
  }

  check({ token, value }: ParsedTokenInfo): void {
    if (!this.started) {
      if (token !== TokenType.LEFT_BRACE) throw new UsageError('the JSON document must be an object with categories, tags, contents, inquiry_categories and synonyms arrays')
      this.started = true
    }
    if (this.#depth === 1) {
      if (this.#expectArray && token !== TokenType.LEFT_BRACKET) throw new UsageError(`${this.section ?? 'section'}: must be an array`)
      this.#expectArray = false
      if (this.#expectKey && token === TokenType.STRING) {
        const name = String(value)
        if (!(name in SECTIONS)) {
          const hint = name === 'kind' ? `; ${NDJSON_HINT}` : ''
          throw new UsageError(`${name}: not a known section (categories, tags, contents, inquiry_categories, synonyms)${hint}`)
        }
        this.section = name
        this.#expectKey = false
      } else if (token === TokenType.COLON) {
        this.#expectArray = true
      } else if (token === TokenType.COMMA) {
        this.#expectKey = true
      }
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      this.#depth++
      if (this.#depth === 1) this.#expectKey = true
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
      this.#depth--
    }
  }
}

/** Where `from` moves to over the first `length` bytes of `bytes` (UTF-8 continuation bytes add no column). */
function advance(from: { line: number; column: number }, bytes: Buffer, length: number): { line: number; column: number } {
  let { line, column } = from
  let lineStart = 0
  for (let at = bytes.indexOf(10); at !== -1 && at < length; at = bytes.indexOf(10, at + 1)) {
    line++
    column = 1
    lineStart = at + 1
  }
  for (let i = lineStart; i < length; i++) if (((bytes[i] ?? 0) & 0xc0) !== 0x80) column++
  return { line, column }
}

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
}

/**
 * Reads a JSON import document `{"categories": [...], "tags": [...], "contents": [...],
 * "inquiry_categories": [...]}` as a stream: each array element is parsed on its own and
 * handed on, located as `contents[3]`, so the document is never held whole. Sections are read
 * in file order (put categories before the contents that use them). Each record gets the
 * `kind` of its section; a record naming another kind is refused.
 */
export async function* readJsonDocument(input: AsyncIterable<Buffer | string>): AsyncIterable<ImportItem> {
  const ready: ImportItem[] = []
  const shape = new DocumentShape()
  const tokenizer = new Tokenizer()
  const parser = new TokenParser({ paths: ['$.*.*'], keepStack: false })
  tokenizer.onToken = (token: ParsedTokenInfo) => {
    shape.check(token)
    parser.write(token)
  }
  parser.onValue = (info: ParsedElementInfo) => {
    const section = shape.section
    if (section === null || typeof info.key !== 'number') return
    ready.push(sectionRecord(info.value, section, info.key))
  }
  try {
    for await (const chunk of input) {
      tokenizer.write(typeof chunk === 'string' ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
      // Hint: drain before the next chunk, so that at most one chunk's records wait in memory.
      for (const item of ready.splice(0)) yield item
    }
    if (!shape.started) throw new UsageError('the JSON document is empty')
    tokenizer.end()
    if (!shape.complete) throw new UsageError('not a valid JSON document (it ends before its last bracket)')
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(`not a valid JSON document (${error instanceof Error ? error.message : 'parse error'})`)
  }
  for (const item of ready.splice(0)) yield item
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
      if (token !== TokenType.LEFT_BRACE) throw new UsageError('the JSON document must be an object with categories, tags, contents and inquiry_categories arrays')
      this.started = true
    }
    if (this.#depth === 1) {
      if (this.#expectArray && token !== TokenType.LEFT_BRACKET) throw new UsageError(`${this.section ?? 'section'}: must be an array`)
      this.#expectArray = false
      if (this.#expectKey && token === TokenType.STRING) {
        const name = String(value)
        if (!(name in SECTIONS)) throw new UsageError(`${name}: not a known section (categories, tags, contents, inquiry_categories)`)
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

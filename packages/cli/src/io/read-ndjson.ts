import { createInterface } from 'node:readline'
import type { ImportItem } from '@frontdesk/core'
import { UsageError } from '@frontdesk/core'

/**
 * Reads NDJSON import records one line at a time (never the whole stream), located as
 * `line N` (1-based). Blank lines are skipped; a line that is not JSON is a `UsageError`.
 */
export async function* readNdjson(input: NodeJS.ReadableStream): AsyncIterable<ImportItem> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
  let number = 0
  try {
    for await (const raw of lines) {
      number++
      // Hint: a UTF-8 byte-order mark may start the first line of a file saved by an editor.
      const line = number === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw
      if (line.trim() === '') continue
      let record: unknown
      try {
        record = JSON.parse(line)
      } catch (error) {
        throw new UsageError(`line ${number}: not valid JSON (${error instanceof Error ? error.message : 'parse error'})`)
      }
      yield { record, location: `line ${number}` }
    }
  } finally {
    lines.close()
  }
}

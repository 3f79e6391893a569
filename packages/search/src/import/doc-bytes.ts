import type { SearchDocument } from '@frontdesk/core'
import type { ByteSpill } from '../build/list-spill.ts'
import type { DocColumns } from '../tenant/doc-table.ts'
import { DocColumnsWriter } from '../tenant/doc-table.ts'

/** Bytes per block of `DocBytes` (an item larger than that gets a block of its own). */
const BLOCK = 1 << 20
/** Items per piece handed to the snapshot's writer when they are read back out of order. */
const ITEMS_PER_PIECE = 4096

/**
 * An import's analysed items as the JSON their snapshot holds (`JSON.stringify` of each),
 * appended in blocks to a `ByteSpill` as they come: ~320 bytes an item in the page cache (a
 * file) instead of ~600 bytes of objects in the heap, which a large first import held until
 * its snapshot was written, beside its postings; their columns (see `DocColumns`) are
 * collected beside. Read back once, in the snapshot's order.
 */
export class DocBytes {
  readonly #spill: ByteSpill
  #block = Buffer.allocUnsafe(BLOCK)
  #used = 0
  /** Where the current block starts in the spill. */
  #blockAt = 0
  /** Per item (by the number `add` answered), where its bytes start; the next item's start is its end. */
  #starts = new Float64Array(1024)
  #count = 0
  readonly #columns = new DocColumnsWriter()

  constructor(spill: ByteSpill) {
    this.#spill = spill
  }

  /** Items added. */
  get count(): number {
    return this.#count
  }

  /** Keeps the item's JSON; answers its number (0 for the first). */
  add(doc: SearchDocument): number {
    const text = JSON.stringify(doc)
    // Hint: a UTF-16 code unit takes at most 3 bytes of UTF-8: with that much room left the text is encoded once, into the block, else measured first.
    if (this.#used + 3 * text.length > this.#block.length) {
      const needed = Buffer.byteLength(text)
      if (this.#used + needed > this.#block.length) {
        this.#flush()
        if (needed > this.#block.length) this.#block = Buffer.allocUnsafe(needed)
      }
    }
    if (this.#count + 1 >= this.#starts.length) {
      const starts = new Float64Array(this.#starts.length * 2)
      starts.set(this.#starts)
      this.#starts = starts
    }
    this.#starts[this.#count] = this.#blockAt + this.#used
    const length = this.#block.write(text, this.#used)
    this.#used += length
    this.#starts[this.#count + 1] = this.#blockAt + this.#used
    this.#columns.add(doc, length)
    return this.#count++
  }

  /**
   * The items `order` lists (by number; `null`: all, in the order added) as a snapshot's
   * `docs`, their JSON read back from the spill as the snapshot is written. Call once, after
   * the last `add`; the spill is closed once the pieces have all been read.
   */
  encoded(order: Int32Array | null): DocColumns {
    this.#flush()
    this.#block = Buffer.alloc(0)
    const starts = this.#starts
    let byteLength = 0
    if (order === null) byteLength = starts[this.#count] ?? 0
    else for (const n of order) byteLength += (starts[n + 1] ?? 0) - (starts[n] ?? 0)
    const spill = this.#spill
    const pieces = function* (): Generator<Uint8Array> {
      try {
        let left = byteLength
        if (order === null) {
          for (let at = 0; left > 0; ) {
            const piece = Buffer.allocUnsafe(Math.min(4 * BLOCK, left))
            spill.read(at, piece.length, piece)
            at += piece.length
            left -= piece.length
            yield piece
          }
          return
        }
        for (let from = 0; from < order.length; from += ITEMS_PER_PIECE) {
          const to = Math.min(order.length, from + ITEMS_PER_PIECE)
          let size = 0
          for (let k = from; k < to; k++) size += (starts[(order[k] ?? 0) + 1] ?? 0) - (starts[order[k] ?? 0] ?? 0)
          const piece = Buffer.allocUnsafe(size)
          let at = 0
          for (let k = from; k < to; k++) {
            const n = order[k] ?? 0
            const start = starts[n] ?? 0
            const length = (starts[n + 1] ?? 0) - start
            spill.read(start, length, piece.subarray(at))
            at += length
          }
          yield piece
        }
      } finally {
        spill.close()
      }
    }
    return this.#columns.finish(order, { [Symbol.iterator]: pieces })
  }

  /** Lets the items go unread (closes the spill). */
  discard(): void {
    this.#block = Buffer.alloc(0)
    this.#spill.close()
  }

  /** Writes the current block to the spill and starts the next one. */
  #flush(): void {
    if (this.#used === 0) return
    this.#spill.write(this.#block.subarray(0, this.#used))
    this.#blockAt += this.#used
    this.#block = Buffer.allocUnsafe(BLOCK)
    this.#used = 0
  }
}

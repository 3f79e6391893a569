import { closeSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Where a `RangeIndexer` keeps its full chunks of per-document lists instead of the heap: a
 * file written once, front to back, and read back once by `finish`. An import's first
 * indexing holds ~1 KB of lists per item until its end (1 GB at 1,000,000 items); in a file,
 * they take the operating system's page cache, which it can write out and reclaim, not the
 * process's memory.
 */
export interface ListSpill {
  /** Appends the numbers; answers where they start (in numbers), for `read`. */
  write(numbers: Uint32Array): number
  /** `length` numbers from `at`, in a new array. */
  read(at: number, length: number): Uint32Array<ArrayBuffer>
  /** Closes and removes the file. */
  close(): void
}

/** As `ListSpill`, for bytes (an import's items as the JSON their snapshot holds, see `DocBytes`). */
export interface ByteSpill {
  /** Appends the bytes; answers where they start, for `read`. */
  write(bytes: Uint8Array): number
  /** `length` bytes from `at` into `into` (from its start). */
  read(at: number, length: number, into: Uint8Array): void
  /** Closes and removes the file. */
  close(): void
}

/**
 * A `ListSpill` in a new file under `dir` (default: the system's temporary directory), removed
 * from the directory as soon as it is open: nothing is left behind, whatever ends the process.
 */
export function fileSpill(dir: string = tmpdir()): ListSpill {
  const bytes = fileByteSpill(dir)
  return {
    write: (numbers) => bytes.write(new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength)) / 4,
    read(at, length) {
      const numbers = new Uint32Array(length)
      bytes.read(at * 4, numbers.byteLength, new Uint8Array(numbers.buffer))
      return numbers
    },
    close: () => bytes.close(),
  }
}

/** A `ByteSpill` in a new file under `dir`, removed from the directory as soon as it is open (see `fileSpill`). */
export function fileByteSpill(dir: string = tmpdir()): ByteSpill {
  const folder = mkdtempSync(join(dir, 'frontdesk-lists-'))
  const path = join(folder, 'lists')
  let fd: number | null = null
  try {
    fd = openSync(path, 'w+', 0o600)
  } finally {
    // Hint: an open file lives on unnamed; the kernel frees it when the descriptor closes, on any exit.
    if (fd !== null) unlinkSync(path)
    rmSync(folder, { recursive: true, force: true })
  }
  const open = fd
  let size = 0
  return {
    write(bytes) {
      const at = size
      for (let done = 0; done < bytes.length; ) done += writeSync(open, bytes, done, bytes.length - done, at + done)
      size += bytes.length
      return at
    },
    read(at, length, into) {
      for (let done = 0; done < length; ) {
        const read = readSync(open, into, done, length - done, at + done)
        if (read === 0) throw new Error('The spilled lists of a search index build ended early')
        done += read
      }
    },
    close() {
      closeSync(open)
    },
  }
}

/** A `ByteSpill` in memory, for when no temporary file can be made: the blocks written, kept as they are. */
export function memoryByteSpill(): ByteSpill {
  const blocks: Uint8Array[] = []
  const starts: number[] = []
  let size = 0
  return {
    write(bytes) {
      blocks.push(bytes)
      starts.push(size)
      size += bytes.length
      return size - bytes.length
    },
    read(at, length, into) {
      let low = 0
      let high = starts.length - 1
      while (low < high) {
        const mid = (low + high + 1) >> 1
        if ((starts[mid] ?? 0) <= at) low = mid
        else high = mid - 1
      }
      for (let done = 0, block = low; done < length; block++) {
        const bytes = blocks[block]
        if (bytes === undefined) throw new Error('The spilled lists of a search index build ended early')
        const from = at + done - (starts[block] ?? 0)
        const part = bytes.subarray(from, Math.min(bytes.length, from + length - done))
        into.set(part, done)
        done += part.length
      }
    },
    close() {
      blocks.length = 0
    },
  }
}

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

/**
 * A `ListSpill` in a new file under `dir` (default: the system's temporary directory), removed
 * from the directory as soon as it is open: nothing is left behind, whatever ends the process.
 */
export function fileSpill(dir: string = tmpdir()): ListSpill {
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
    write(numbers) {
      const at = size
      const bytes = new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength)
      for (let done = 0; done < bytes.length; ) done += writeSync(open, bytes, done, bytes.length - done, at * 4 + done)
      size += numbers.length
      return at
    },
    read(at, length) {
      const numbers = new Uint32Array(length)
      const bytes = new Uint8Array(numbers.buffer)
      for (let done = 0; done < bytes.length; ) {
        const read = readSync(open, bytes, done, bytes.length - done, at * 4 + done)
        if (read === 0) throw new Error('The spilled lists of a search index build ended early')
        done += read
      }
      return numbers
    },
    close() {
      closeSync(open)
    },
  }
}

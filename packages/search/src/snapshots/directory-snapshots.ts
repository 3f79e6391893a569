import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { SnapshotStore } from '@frontdesk/core'

const SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Snapshots as files in a directory on local disk, one per name (`<name>.index`): what
 * `frontdesk serve` and `import` use (`<database file>.search` by default). Snapshots hold
 * every item's terms and filter data, drafts included, so they are as private as the
 * database: the directory is created 0700, the files 0600. A file is written under a
 * temporary name and renamed into place, so a reader never sees half of one; `stagingFile`
 * hands such a temporary file to an import's indexing worker. A temporary file left by a
 * process killed while writing (its name holds the process id) is removed by the next write
 * of that name. A name that is not a plain file name (letters, digits, `_`, `-`) is never read
 * nor written.
 */
export function directorySnapshots(dir: string): SnapshotStore {
  const fileOf = (name: string) => join(dir, `${name}.index`)
  const temporaryOf = (name: string) => `${fileOf(name)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  return {
    async read(name) {
      if (!SAFE_NAME.test(name)) return null
      try {
        return await readWhole(fileOf(name))
      } catch {
        return null
      }
    },
    async readStart(name, length) {
      if (!SAFE_NAME.test(name)) return null
      try {
        const file = await open(fileOf(name), 'r')
        try {
          const bytes = new Uint8Array(length)
          const { bytesRead } = await file.read(bytes, 0, length, 0)
          return bytes.subarray(0, bytesRead)
        } finally {
          await file.close()
        }
      } catch {
        return null
      }
    },
    async write(name, chunks) {
      if (!SAFE_NAME.test(name)) return false
      const target = fileOf(name)
      const temporary = temporaryOf(name)
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 })
        const file = await open(temporary, 'w', 0o600)
        try {
          // Hint: libuv ends a writev early when a batch of 1,024 buffers is all empty; a short file is never renamed into place.
          const pieces = chunks.filter((chunk) => chunk.length > 0)
          const { bytesWritten } = await file.writev(pieces)
          const expected = pieces.reduce((sum, chunk) => sum + chunk.length, 0)
          if (bytesWritten !== expected) throw new Error(`wrote ${bytesWritten} of ${expected} bytes`)
        } finally {
          await file.close()
        }
        await rename(temporary, target)
        await sweep(dir, name)
        return true
      } catch {
        // Hint: best effort; a leftover temporary file is never read as a snapshot.
        await rm(temporary, { force: true }).catch(() => undefined)
        return false
      }
    },
    async stagingFile(name) {
      if (!SAFE_NAME.test(name)) return null
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 })
      } catch {
        return null
      }
      const path = temporaryOf(name)
      const discard = () => rm(path, { force: true }).then(() => undefined, () => undefined)
      return {
        path,
        publish: async () => {
          try {
            await rename(path, fileOf(name))
            await sweep(dir, name)
            return true
          } catch {
            await discard()
            return false
          }
        },
        discard,
      }
    },
  }
}

/** Bytes of a file read by one request to the thread pool (see `readWhole`). */
const READ_PIECE = 64 * 1024 * 1024

/**
 * The file's bytes, asked of the thread pool all at once in pieces of `pieceBytes`, so that
 * it reads them while this thread does other work: `readFile` asks 512 KiB at a time, each
 * once the last has arrived, so a read of a 1.46 GB snapshot stalled whenever the thread was
 * busy (a start prepares the changes to replay meanwhile, see `SearchEngine`).
 */
export async function readWhole(path: string, pieceBytes = READ_PIECE): Promise<Uint8Array> {
  const file = await open(path, 'r')
  try {
    const { size } = await file.stat()
    const bytes = Buffer.allocUnsafeSlow(size)
    const pieces: Promise<void>[] = []
    for (let at = 0; at < size; at += pieceBytes) pieces.push(readPiece(file, bytes, at, Math.min(pieceBytes, size - at)))
    // Hint: every read settled before the file is closed, even when one failed.
    const failed = (await Promise.allSettled(pieces)).find((outcome) => outcome.status === 'rejected')
    if (failed !== undefined) throw failed.reason
    return bytes
  } finally {
    await file.close()
  }
}

/** Reads `bytes[at…at + length)` from the same place in the file; a file that ends before is an error. */
async function readPiece(file: FileHandle, bytes: Uint8Array, at: number, length: number): Promise<void> {
  for (let done = 0; done < length; ) {
    const { bytesRead } = await file.read(bytes, at + done, length - done, at + done)
    if (bytesRead === 0) throw new Error('The file ended before its size')
    done += bytesRead
  }
}

/** Removes the temporary files of `name` left by processes that no longer run (killed while writing); best effort. */
async function sweep(dir: string, name: string): Promise<void> {
  const pattern = new RegExp(`^${name}\\.index\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`)
  try {
    for (const file of await readdir(dir)) {
      const pid = Number(pattern.exec(file)?.[1] ?? Number.NaN)
      if (Number.isInteger(pid) && pid !== process.pid && !processRuns(pid)) await rm(join(dir, file), { force: true })
    }
  } catch {
    // Hint: a leftover is never read as a snapshot; it only takes room.
  }
}

/**
 * Whether a process with this id runs on this machine (one of another user counts): whether what
 * it left in a snapshot directory is still its. A process that has ended but was not yet reaped
 * by its parent (a zombie) does not run: a killed background refresh, orphaned, waits as one
 * for as long as the machine's init leaves it, forever in a container without one.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EPERM') return false
  }
  return !ended(pid)
}

/** Whether the process is a zombie, by its state in /proc (Linux); `false` where that cannot be read. */
function ended(pid: number): boolean {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  } catch {
    return false
  }
  // Hint: the state follows the command name, in parentheses that may themselves hold any character.
  const state = stat.charAt(stat.lastIndexOf(')') + 2)
  return state === 'Z' || state === 'X'
}

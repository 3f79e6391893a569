import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { SnapshotStore } from '@frontdesk/core'

const SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Snapshots as files in a directory on local disk, one per name (`<name>.index`): what
 * `frontdesk serve` and `import` use (`<database file>.search` by default). Snapshots hold
 * every item's terms and filter data, drafts included, so they are as private as the
 * database: the directory is created 0700, the files 0600. A file is written under a
 * temporary name and renamed into place, so a reader never sees half of one; `stagingFile`
 * hands such a temporary file to an import's indexing worker. A name that is not a plain file
 * name (letters, digits, `_`, `-`) is never read nor written.
 */
export function directorySnapshots(dir: string): SnapshotStore {
  const fileOf = (name: string) => join(dir, `${name}.index`)
  const temporaryOf = (name: string) => `${fileOf(name)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  return {
    async read(name) {
      if (!SAFE_NAME.test(name)) return null
      try {
        return await readFile(fileOf(name))
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
          await file.writev(chunks.slice())
        } finally {
          await file.close()
        }
        await rename(temporary, target)
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

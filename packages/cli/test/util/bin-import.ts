import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseQueryTerms } from '@frontdesk/core'
import type { SearchBuildInfo } from '@frontdesk/search'
import { createSearchEngine, directorySnapshots } from '@frontdesk/search'
import * as assert from 'uvu/assert'
import { openStore } from '../../src/session.ts'

const BIN = join(fileURLToPath(new URL('../../../../', import.meta.url)), 'packages/cli/bin/frontdesk.js')

/**
 * Runs the binary; with `killAfterMs`, SIGKILLs it then (when still running); with
 * `maxFileKiB`, no file it writes may grow beyond that (`ulimit -f`: a write past it fails
 * with EFBIG, as one on a full disk fails with ENOSPC). Resolves with its exit code (null when killed).
 */
export function frontdesk(args: string[], env: Record<string, string>, killAfterMs?: number, maxFileKiB?: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const command: [string, string[]] = maxFileKiB === undefined ? [process.execPath, [BIN, ...args]] : ['/bin/sh', ['-c', `ulimit -f ${Math.ceil(maxFileKiB)} && exec "$0" "$@"`, process.execPath, BIN, ...args]]
    const child = spawn(...command, { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const timer = killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    const limit = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      if (timer !== null) clearTimeout(timer)
      clearTimeout(limit)
      resolve({ code, stderr })
    })
  })
}

/** What a start restoring the snapshots answers, against an index built from the database; and how it made its index. */
export async function startAndCompare(db: string, searchDir: string, texts: readonly string[], tenantCode = 'acme'): Promise<SearchBuildInfo | undefined> {
  const store = await openStore(db)
  const builds: SearchBuildInfo[] = []
  const snapshots = directorySnapshots(searchDir)
  const server = createSearchEngine({ store, warmUp: false, snapshots: { read: (name) => snapshots.read(name), write: async () => false }, onBuild: (info) => builds.push(info) })
  const reference = createSearchEngine({ store, warmUp: false, snapshots: null })
  try {
    const tenantId = (await store.getTenantByCode(tenantCode))?.id ?? ''
    for (const text of texts) {
      const query = { terms: parseQueryTerms(text), now: '2026-01-01T00:00:00.000Z', categoryId: null, tags: null, filters: [], sort: { kind: 'published_at' as const, direction: 'desc' as const }, from: 0, size: 50 }
      const [got, expected] = [await server.search(tenantId, query), await reference.search(tenantId, query)]
      assert.equal({ total: got.total, ids: got.hits.map((hit) => hit.id) }, { total: expected.total, ids: expected.hits.map((hit) => hit.id) }, text)
    }
    return builds[0]
  } finally {
    await server.close()
    await reference.close()
    await store.close()
  }
}


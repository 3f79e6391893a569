// Child process for the open race: `open-race.child.ts <dir> <rounds> <gap ms>` prints `ready`,
// reads `go <instant>` from stdin, then for each round i spins until instant + i × gap and
// opens (creating and migrating) the store `<dir>/<i>.db`, printing `round <i> ok` or
// `round <i> failed <code> <message>`. Two of these open each new file at the same moment.
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { openSqliteStore } from '../../src/sqlite-store.ts'

const [dir, rounds, gap] = process.argv.slice(2)
if (dir === undefined || rounds === undefined || gap === undefined) throw new Error('usage: open-race.child <dir> <rounds> <gap ms>')
process.stdout.write('ready\n')
const lines = createInterface({ input: process.stdin })
let start = NaN
for await (const line of lines) {
  start = Number(/^go (\d+)$/.exec(line)?.[1])
  break
}
lines.close()
for (let round = 0; round < Number(rounds); round++) {
  const at = start + round * Number(gap)
  while (Date.now() < at) {
    // Spin: a timer would wake each process up to a millisecond apart.
  }
  try {
    const store = openSqliteStore({ path: join(dir, `${round}.db`), rateLimitsPath: null })
    await store.close()
    process.stdout.write(`round ${round} ok\n`)
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause
    process.stdout.write(`round ${round} failed ${cause?.code ?? (error as { code?: string }).code} ${(error as Error).message}\n`)
  }
}

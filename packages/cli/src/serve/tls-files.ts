import { X509Certificate } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { createSecureContext } from 'node:tls'
import { checkTlsMaterial, TLS_SETTINGS } from '@frontdesk/http'
import type { TlsMaterialProblem } from '@frontdesk/http'
import type { TlsFiles } from './tls-problem-line.ts'
import { tlsProblemLine } from './tls-problem-line.ts'
import { isTlsMessage } from './worker-messages.ts'

/** A certificate chain and key as read from the files (PEM). */
export interface TlsPems {
  cert: string
  key: string
}

/** Options of `watchTlsFiles`. */
export interface WatchTlsOptions {
  /** Puts a pair that was checked and can serve in use (in this process's server, or in every worker's); a problem it returns is said. */
  apply: (pems: TlsPems) => TlsMaterialProblem | null | void
  /** Says one line to the operator (stderr), without the trailing newline. */
  say: (line: string) => void
  /** How often the files are looked at, in ms. Default `TLS_POLL_MS` (2 s). */
  intervalMs?: number
}

/** A running watch of the certificate files. */
export interface TlsWatch {
  /** Reads the files now and applies them when they fit (what SIGHUP does). */
  reload(reason: string): void
  /** Stops watching and listening for SIGHUP. */
  close(): void
}

/** How often `watchTlsFiles` looks at the files' modification times by default. */
export const TLS_POLL_MS = 2_000

/**
 * Picks up a certificate and key renewed in place (an ACME client writes them every 60–90 days),
 * without a restart: on SIGHUP, and when the files change. Changes are found by polling the
 * files' modification time, size and inode (after following symbolic links, so certbot's
 * `live/` links switching to new files count), which sees a file replaced by a rename as well as
 * one rewritten, where `fs.watch` loses a file renamed over. A change is acted on once the
 * files have stayed the same for one more look, so that a certificate written a moment before
 * its key is not read half renewed. A pair that fits is applied and said in one line
 * (subject, expiry, fingerprint); one that does not is refused in one line naming the file and
 * the problem, and the current certificate keeps serving until the files change again.
 */
export function watchTlsFiles(files: TlsFiles, options: WatchTlsOptions): TlsWatch {
  /** What the server presents: what `serve` read at start, until a reload. */
  let applied: TlsPems | null = null
  try {
    applied = readPems(files)
  } catch {
    // Hint: gone since `serve` read them; the next change or SIGHUP reads them again.
  }
  let seen = signatureOf(files)
  /** The signature a change was last seen at, waiting for one quiet look before it is read. */
  let settling: string | null = null
  /** The signature of files refused, so that a broken pair is said once, not at every look. */
  let refused: string | null = null

  const reload = (reason: string, signature: string) => {
    let pems: TlsPems
    try {
      pems = readPems(files)
    } catch (error) {
      if (refused !== signature) options.say(`frontdesk: certificate not reloaded (${reason}), the current one keeps serving: ${unreadable(error, files)}`)
      refused = signature
      return
    }
    const problem = problemOf(pems, files)
    if (problem !== null) {
      if (refused !== signature) options.say(`frontdesk: certificate not reloaded (${reason}), the current one keeps serving: ${problem}`)
      refused = signature
      return
    }
    refused = null
    if (reason !== 'SIGHUP' && pems.cert === applied?.cert && pems.key === applied.key) return
    const refusedHere = options.apply(pems)
    if (refusedHere) {
      options.say(`frontdesk: certificate not reloaded (${reason}), the current one keeps serving: ${tlsProblemLine(refusedHere, files)}`)
      refused = signature
      return
    }
    applied = pems
    options.say(`frontdesk: certificate reloaded from ${files.certPath} (${reason}): ${describe(pems.cert)}`)
  }

  const look = () => {
    const signature = signatureOf(files)
    if (signature !== seen) {
      seen = signature
      settling = signature
      return
    }
    if (settling === null) return
    settling = null
    reload('files changed', signature)
  }
  const timer = setInterval(look, options.intervalMs ?? TLS_POLL_MS)
  timer.unref()
  const now = (reason: string) => {
    seen = signatureOf(files)
    settling = null
    reload(reason, seen)
  }
  const onHangUp = () => now('SIGHUP')
  process.on('SIGHUP', onHangUp)
  return {
    reload: now,
    close() {
      clearInterval(timer)
      process.off('SIGHUP', onHangUp)
    },
  }
}

/** What keeps `pems` from serving, naming the file; `null` when a server can use them (OpenSSL made a context of them). */
function problemOf(pems: TlsPems, files: TlsFiles): string | null {
  const problem = checkTlsMaterial(pems.cert, pems.key)
  if (problem !== null) return tlsProblemLine(problem, files)
  try {
    createSecureContext({ ...pems, ...TLS_SETTINGS })
    return null
  } catch (error) {
    return `--cert ${files.certPath} and --key ${files.keyPath} cannot be served: ${error instanceof Error ? error.message : String(error)}`
  }
}

function readPems(files: TlsFiles): TlsPems {
  return { cert: readFileSync(files.certPath, 'utf8'), key: readFileSync(files.keyPath, 'utf8') }
}

/** What identifies the files' contents without reading them: modification time, size, inode; `missing` for a file that is not there. */
function signatureOf(files: TlsFiles): string {
  return [files.certPath, files.keyPath]
    .map((path) => {
      try {
        const stat = statSync(path)
        return `${stat.mtimeMs}:${stat.size}:${stat.ino}`
      } catch {
        return 'missing'
      }
    })
    .join('|')
}

function unreadable(error: unknown, files: TlsFiles): string {
  const { code, path } = error as { code?: string; path?: string }
  const flag = path === files.keyPath ? '--key' : '--cert'
  return `${flag} ${path ?? files.certPath} cannot be read (${code ?? String(error)})`
}

/** The leaf certificate's subject, expiry and SHA-256 fingerprint, for the log line. */
function describe(cert: string): string {
  const leaf = new X509Certificate(cert)
  const subject = leaf.subject.split('\n').join(', ')
  return `${subject}, valid until ${new Date(leaf.validTo).toISOString()}, sha256 ${leaf.fingerprint256}`
}

/**
 * In a worker of `serve --workers`: applies the certificates its supervisor's `watchTlsFiles`
 * sends, keeping the last one that arrives before the server is ready. A SIGHUP is left to the
 * supervisor (a hangup of the terminal reaches the whole process group), which reloads for all.
 */
export function tlsFromSupervisor(say: (line: string) => void): { use(reload: (pems: TlsPems) => TlsMaterialProblem | null): void; close(): void } {
  let pending: TlsPems | null = null
  let reload: ((pems: TlsPems) => TlsMaterialProblem | null) | null = null
  const apply = (pems: TlsPems) => {
    const problem = reload?.(pems) ?? null
    if (problem !== null) say(`frontdesk: worker could not use the reloaded certificate, the current one keeps serving: ${problem.message}`)
  }
  const onMessage = (message: unknown) => {
    if (!isTlsMessage(message)) return
    if (reload === null) pending = { cert: message.cert, key: message.key }
    else apply(message)
  }
  const ignore = () => {}
  process.on('message', onMessage)
  process.on('SIGHUP', ignore)
  return {
    use(given) {
      reload = given
      if (pending !== null) apply(pending)
      pending = null
    },
    close() {
      process.off('message', onMessage)
      process.off('SIGHUP', ignore)
    },
  }
}

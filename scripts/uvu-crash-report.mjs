// Preloaded into `npm test`'s uvu runs (`node --import`, see UVU_PRELOAD in test-env.mjs). uvu
// catches what a test throws, not an uncaught exception (an 'error' event nobody listens to, a
// throw in a timer) nor an unhandled rejection: those end the process before uvu prints its
// summary, and the run's report keeps only the end of its output. This says which file and
// which test were running, then the error's stack, and exits with code 1 as Node would have.
// It also names the test a process exits under while tests are still running (uvu's "Exiting
// early": the event loop ran empty while a test awaited a promise nothing would settle).

import { writeFileSync } from 'node:fs'
import { inspect } from 'node:util'
import { isMainThread } from 'node:worker_threads'

// Hint: uvu and the tests run on the main thread; a worker thread a test starts keeps Node's own handling.
if (isMainThread) install()

function install() {
  /** What uvu is doing: the file it imports or runs, the suite and test running (null between tests). */
  const now = { file: null, suite: null, test: null, importing: false, running: false }
  let reported = false
  // Hint: with FRONTDESK_TEST_TIMES set, the ms each file's suites took so far are written there
  // after each suite (a run stopped at its time limit is killed: nothing is written at its exit).
  const timesFile = process.env.FRONTDESK_TEST_TIMES
  const times = new Map()

  // Hint: uvu keeps the queue of the files it imports in this global (`[file, ...suite runs]`)
  // and takes the one it finds; each suite's run is wrapped to note the file it belongs to.
  globalThis.UVU_QUEUE = Object.assign([], {
    push(group) {
      const file = group[0]
      Object.assign(now, { file, importing: true })
      group.push = (run) =>
        Array.prototype.push.call(group, async () => {
          Object.assign(now, { file, suite: null, test: null, importing: false, running: true })
          const started = performance.now()
          // Hint: a suite whose after hook threw ends uvu (its CLI exits) still running.
          const result = await run()
          now.running = false
          if (timesFile) {
            times.set(file, (times.get(file) ?? 0) + performance.now() - started)
            writeFileSync(timesFile, JSON.stringify([...times]))
          }
          return result
        })
      return Array.prototype.push.call(this, group)
    },
  })

  // Hint: uvu notes the test it runs in its suite's state, `state.__test__` ('' between tests),
  // beside `state.__suite__`; an accessor on every object sees it without changing uvu.
  const tests = new WeakMap()
  Object.defineProperty(Object.prototype, '__test__', {
    configurable: true,
    get() {
      return tests.get(this)
    },
    set(name) {
      tests.set(this, name)
      now.suite = this.__suite__ ?? now.suite
      now.test = name === '' ? null : name
    },
  })

  /** Where the run was, in one line. */
  function where() {
    if (now.file === null) return 'before any test file was imported'
    if (now.importing) return `while importing ${now.file}`
    if (!now.running) return `in ${now.file}, after its suites ran`
    const suite = now.suite ? `suite "${now.suite}", ` : ''
    const test = now.test === null ? 'in a before/after hook or between tests' : `test "${now.test}"`
    return `in ${now.file}, ${suite}${test} (or in something an earlier test left running)`
  }

  process.on('uncaughtException', (error, origin) => {
    reported = true
    const stack = error instanceof Error ? (error.stack ?? String(error)) : inspect(error)
    const what = origin === 'unhandledRejection' ? 'an unhandled rejection' : 'an uncaught exception'
    process.stderr.write(`\n${stack}\n\nThe test process crashed with ${what} ${where()}.\n`)
    process.exit(1)
  })

  process.on('exit', () => {
    if ((now.running || now.importing) && !reported) {
      const why = 'uvu stopped at the error above (thrown by an after hook, or by a test file as it was imported), or a test awaited a promise nothing was left to settle'
      process.stderr.write(`\nThe test process exited while its tests were still running, ${where()}: ${why}.\n`)
    }
  })
}

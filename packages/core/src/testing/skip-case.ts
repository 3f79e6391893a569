import { suite } from 'uvu'
import type { Callback, Test } from 'uvu'

/**
 * Registers a case that cannot run against this store or pairing (a capability it does not
 * declare), saying why: uvu only counts a skipped test, so the reason is printed here.
 */
export function skipCase<T>(s: Test<T>, name: string, title: string, reason: string): void {
  s.skip(`${title} (skipped: ${reason})`, () => undefined)
  console.log(`  ${name}: skipped "${title}": ${reason}`)
}

/**
 * `s` itself when `reason` is null. Else a suite in its place for cases that cannot run here
 * (a service they need is missing, `reason` says which and why): each case is registered as
 * skipped, the count and the reason are printed once when it is run, and its hooks are
 * dropped, since the setup they pair with never happens. `skip` and `skipCase` keep their own
 * reasons.
 */
export function unlessMissing<T>(s: Test<T>, title: string, reason: string | null): Test<T> {
  if (reason === null) return s
  let skipped = 0
  const skip = (): void => {
    skipped++
    s.skip()
  }
  const dropped = Object.assign((_hook: Callback<T>) => undefined, { each: (_hook: Callback<T>) => undefined })
  return Object.assign((_name: string, _handler: Callback<T>) => skip(), {
    only: skip,
    skip: s.skip,
    before: dropped,
    after: dropped,
    run: () => {
      console.log(`  ${title}: ${skipped} skipped: ${reason}`)
      s.run()
    },
  })
}

/** Why the conformance suites being registered cannot run (see `registerUnless`), or null. */
let missing: string | null = null

/**
 * Registers the conformance suites `register` makes (synchronously, as `testStore` does): as
 * they are, or, when `reason` is not null, with every case skipped for that reason (see
 * `unlessMissing`).
 */
export function registerUnless(reason: string | null | undefined, register: () => void): void {
  const outer = missing
  missing = reason ?? outer
  try {
    register()
  } finally {
    missing = outer
  }
}

/** A uvu suite of conformance cases: its cases skipped when registered within `registerUnless` with a reason. */
export function caseSuite<T>(title: string, context: T): Test<T> {
  return unlessMissing(suite<T>(title, context), title, missing)
}

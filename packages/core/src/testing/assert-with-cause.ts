import fc from 'fast-check'

/**
 * `fc.assert`, with the shrunk counterexample's own failure (the assertion that failed, and
 * where) at the end of the report: fast-check keeps it only as the error's `cause`, which a
 * test runner does not print.
 */
export async function assertWithCause<T>(property: fc.IAsyncProperty<T>, parameters: fc.Parameters<T>): Promise<void> {
  try {
    await fc.assert(property, parameters)
  } catch (error) {
    const cause = error instanceof Error ? error.cause : undefined
    if (cause === undefined) throw error
    const why = cause instanceof Error ? `${cause.message}\n${difference(cause)}${cause.stack?.split('\n').slice(1, 6).join('\n') ?? ''}` : String(cause)
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n\nThe shrunk counterexample failed with:\n${why}`, { cause })
  }
}

/** What an assertion of uvu saw and wanted (it keeps them beside its message). */
function difference(error: Error): string {
  const { actual, expects } = error as Error & { actual?: unknown; expects?: unknown }
  if (actual === undefined && expects === undefined) return ''
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))
  return `  actual:   ${text(actual)}\n  expected: ${text(expects)}\n`
}

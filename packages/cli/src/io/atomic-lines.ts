import type { CliOutput } from '../env.ts'

/** Bytes a single write to a pipe is guaranteed to land whole in (POSIX `PIPE_BUF` on Linux). */
export const PIPE_BUF = 4096

/**
 * Writes whole lines to `output` in writes of at most `PIPE_BUF` bytes, each ending at a line's
 * end, so that several processes writing to one pipe (the workers of `serve --workers` share
 * their stdout) never interleave within a line: POSIX makes such writes atomic. A single line
 * longer than that is written alone.
 */
export function writeAtomicLines(output: CliOutput, text: string): void {
  if (text.length <= PIPE_BUF / 3 || Buffer.byteLength(text) <= PIPE_BUF) {
    output.write(text)
    return
  }
  let start = 0
  let bytes = 0
  let at = 0
  while (at < text.length) {
    const end = text.indexOf('\n', at)
    const next = end === -1 ? text.length : end + 1
    const size = Buffer.byteLength(text.slice(at, next))
    if (bytes > 0 && bytes + size > PIPE_BUF) {
      output.write(text.slice(start, at))
      start = at
      bytes = 0
    }
    bytes += size
    at = next
  }
  if (start < text.length) output.write(text.slice(start))
}

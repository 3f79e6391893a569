import type { CliOutput } from '../env.ts'

/** An output that may ask its writer to wait (`write` returned `false`) until `drain`. */
interface DrainableOutput extends CliOutput {
  once?(event: 'drain', listener: () => void): unknown
}

/**
 * Writes `chunk`, waiting for `drain` when the output's buffer is full, so that a large
 * export streams at the reader's pace instead of piling up in memory.
 */
export async function writeChunk(out: DrainableOutput, chunk: string): Promise<void> {
  if (out.write(chunk) === false && typeof out.once === 'function') {
    const once = out.once.bind(out)
    await new Promise<void>((resolve) => once('drain', resolve))
  }
}

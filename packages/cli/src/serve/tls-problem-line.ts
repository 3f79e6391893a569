import type { TlsMaterialProblem } from '@frontdesk/http'

/** The `--cert` and `--key` files of `serve`, resolved. */
export interface TlsFiles {
  certPath: string
  keyPath: string
}

/** What is wrong with `--cert`/`--key`, naming the file. */
export function tlsProblemLine(problem: TlsMaterialProblem, files: TlsFiles): string {
  const { certPath, keyPath } = files
  if (problem.subject === 'cert') return `--cert ${certPath} ${problem.message}`
  if (problem.subject === 'key') return `--key ${keyPath} ${problem.message}`
  if (/swapped/.test(problem.message)) return `--cert ${certPath} holds a private key and --key ${keyPath} a certificate: they are swapped`
  if (/does not belong/.test(problem.message)) return `--key ${keyPath} does not belong to the certificate in --cert ${certPath}`
  return `--cert ${certPath} and --key ${keyPath} ${problem.message}`
}

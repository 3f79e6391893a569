import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/*
 * CPU time and memory of a server as the kernel counts them (Linux `/proc`), read from outside
 * the server, over a set of root processes and all their descendants: a server that forks
 * workers is measured whole, without any hook in its code.
 */

/** One reading of a process tree's CPU time. */
export interface CpuReading {
  /** `performance.now()` of the reading. */
  at: number
  /** By pid: user + system CPU of the process and of its children it has reaped, in µs. */
  micros: Map<number, number>
}

let ticksPerSecond: number | null = null

/** The kernel's clock ticks per second (`getconf CLK_TCK`, nearly always 100): the unit of `/proc/<pid>/stat` times. */
export function clockTicks(): number {
  if (ticksPerSecond !== null) return ticksPerSecond
  try {
    ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 }).trim()) || 100
  } catch {
    ticksPerSecond = 100
  }
  return ticksPerSecond
}

/** The fields of `/proc/<pid>/stat` after `(comm)`, which may itself hold spaces and parentheses; `null` once the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}

/** `roots` and every live descendant of them (by parent pid, from a scan of `/proc`). */
export function processTree(roots: readonly number[]): number[] {
  const children = new Map<number, number[]>()
  let names: string[] = []
  try {
    names = readdirSync('/proc')
  } catch {
    return [...roots]
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    // Field 4 of the line (the parent pid) is the second after `(comm)`.
    const parent = Number(statFields(Number(name))?.[1] ?? Number.NaN)
    if (!Number.isFinite(parent)) continue
    const list = children.get(parent)
    if (list === undefined) children.set(parent, [Number(name)])
    else list.push(Number(name))
  }
  const tree: number[] = []
  const queue = [...roots]
  const seen = new Set<number>()
  while (queue.length > 0) {
    const pid = queue.shift() ?? 0
    if (seen.has(pid)) continue
    seen.add(pid)
    tree.push(pid)
    queue.push(...(children.get(pid) ?? []))
  }
  return tree
}

/**
 * Reads the CPU time of `roots` and their descendants. Each process counts its own user and
 * system time (threads included) plus that of the children it has reaped, so a worker that
 * exits between two readings still counts: its time moves to its parent's.
 */
export function readCpu(roots: readonly number[]): CpuReading {
  const tick = 1e6 / clockTicks()
  const micros = new Map<number, number>()
  for (const pid of processTree(roots)) {
    const fields = statFields(pid)
    if (fields === null) continue
    // utime, stime, cutime, cstime: fields 14–17 of the line, 11–14 after `(comm)`.
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
    if (Number.isFinite(ticks)) micros.set(pid, ticks * tick)
  }
  return { at: performance.now(), micros }
}

/**
 * CPU µs the tree used between two readings. The tree's sum only grows: a process started
 * since counts from zero, one that exited since has moved its time to its parent's.
 */
export function cpuBetween(start: CpuReading, end: CpuReading): number {
  let used = 0
  for (const micros of end.micros.values()) used += micros
  for (const micros of start.micros.values()) used -= micros
  return used
}

/** A `/proc/<pid>/status` figure in bytes (`VmRSS`, `VmHWM`), or `null`. */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] === undefined ? null : Number(match[1]) * 1024
  } catch {
    return null
  }
}

/** The resident set size of `roots` and their descendants together, in bytes; `null` when none is readable. */
export function residentBytes(roots: readonly number[]): number | null {
  return sumOver(processTree(roots), 'VmRSS')
}

/**
 * The peak resident set size of `roots` and their descendants (`VmHWM`, each process's own
 * peak since it started, summed: at least the peak of the sum), in bytes; `null` when none is readable.
 */
export function peakResidentBytes(roots: readonly number[]): number | null {
  return sumOver(processTree(roots), 'VmHWM')
}

function sumOver(pids: readonly number[], field: 'VmRSS' | 'VmHWM'): number | null {
  let total: number | null = null
  for (const pid of pids) {
    const bytes = statusBytes(pid, field)
    if (bytes !== null) total = (total ?? 0) + bytes
  }
  return total
}

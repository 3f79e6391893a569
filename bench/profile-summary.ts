import { readFileSync } from 'node:fs'

/*
 * `node --import tsx bench/profile-summary.ts FILE.cpuprofile [N] [FROM_S] [TO_S]`: where the
 * time of a `node --cpu-prof` profile went — the top N functions by self time, and self time
 * per package/file — optionally only between FROM_S and TO_S seconds after the profile
 * started (one scenario of a run), to read the benchmark server's profiles without a browser.
 */

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  startTime: number
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const [file, topText, fromText, toText] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: profile-summary.ts FILE.cpuprofile [N]')
const top = Number(topText ?? 30)
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const fromUs = Number(fromText ?? 0) * 1e6
const toUs = toText === undefined ? Infinity : Number(toText) * 1e6
const selfUs = new Map<number, number>()
let at = 0
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i] ?? 0
  const delta = profile.timeDeltas[i] ?? 0
  at += delta
  if (at < fromUs || at > toUs) continue
  selfUs.set(id, (selfUs.get(id) ?? 0) + delta)
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0)

const shortUrl = (url: string) => {
  const path = url.replace(/^file:\/\//, '')
  if (path.includes('/node_modules/')) return path.replace(/^.*\/node_modules\//, 'node_modules/')
  return path.replace(/^.*\/packages\//, 'packages/')
}

const byFunction = new Map<string, number>()
const byFile = new Map<string, number>()
for (const [id, us] of selfUs) {
  const node = byId.get(id)
  if (node === undefined) continue
  const where = shortUrl(node.callFrame.url) || '(native/program)'
  const name = `${node.callFrame.functionName || '(anonymous)'}  ${where}:${node.callFrame.lineNumber + 1}`
  byFunction.set(name, (byFunction.get(name) ?? 0) + us)
  const group = where.startsWith('node_modules/') ? where.split('/').slice(0, where.split('/')[1]?.startsWith('@') ? 3 : 2).join('/') : where
  byFile.set(group, (byFile.get(group) ?? 0) + us)
}
const print = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`)
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}\n`)
  }
}
process.stdout.write(`total sampled: ${(total / 1e6).toFixed(1)} s\n`)
print('self time by function', byFunction)
print('self time by file / package', byFile)

import { Dataset } from '../../../bench/dataset.ts'
import { forEachIndexTerm, stripHtml } from '@frontdesk/core'
import { InvertedIndex } from '../src/matching/inverted-index.ts'
const N = Number(process.argv[2] ?? 10000)
const d = new Dataset(N)
const docs: string[][] = []
for (const it of d.records()) { const r = it.record as Record<string, unknown>; if (r.kind === 'content') docs.push([String(r.title), String(r.summary), String(r.body), (r.tags as string[]).join('\n'), '']) }
const cpu = (label: string, f: () => void) => { const c0 = process.cpuUsage(); f(); const c = process.cpuUsage(c0); console.log(label.padEnd(12), ((c.user + c.system) / 1000).toFixed(0), 'ms cpu /', N) }
let bodies: string[] = []
cpu('strip', () => { bodies = docs.map((x) => stripHtml(x[2] ?? '')) })
cpu('analyze', () => { let n = 0; for (const [i, x] of docs.entries()) for (const t of [x[0], x[1], bodies[i], x[3]]) forEachIndexTerm(t ?? '', () => void n++) })
const map = new Map<string, number>()
cpu('analyze+map', () => { for (const [i, x] of docs.entries()) for (const t of [x[0], x[1], bodies[i], x[3]]) forEachIndexTerm(t ?? '', (term) => { if (!map.has(term)) map.set(term, map.size) }) })
console.log('vocabulary', map.size)
const index = new InvertedIndex()
cpu('index', () => { for (const [i, x] of docs.entries()) index.addDocument(i, [x[0] ?? '', x[1] ?? '', bodies[i] ?? '', x[3] ?? '', '']) })
console.log('terms', index.termCount)

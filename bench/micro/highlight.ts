/*
 * `node --conditions=source --import tsx bench/micro/highlight.ts`: CPU of `highlightFragments`
 * over the benchmark's bodies, for a rare and a common word of each language.
 */
import { highlightFragments, parseQueryTerms, stripHtml } from '@frontdesk/core'
import { Dataset } from '../dataset.ts'

const d = new Dataset(3000)
const docs: { texts: string[]; en: boolean }[] = []
for (const it of d.records()) {
  const r = it.record as Record<string, string>
  if (r.kind === 'content') docs.push({ texts: [r.summary ?? '', stripHtml(r.body ?? '')], en: !/[\u3040-\u30ff]/.test(r.title ?? '') })
}
const { english, japanese } = d.facts.vocabulary
for (const [label, word, en] of [['en rare', english[700], true], ['en common', english[3], true], ['ja rare', japanese[300], false], ['ja common', japanese[2], false]] as const) {
  const terms = parseQueryTerms(word ?? 'x')
  const set = docs.filter((x) => x.en === en).slice(0, 1000)
  for (const x of set) highlightFragments(x.texts, terms)
  const c0 = process.cpuUsage()
  for (let r = 0; r < 3; r++) for (const x of set) highlightFragments(x.texts, terms)
  const c = process.cpuUsage(c0)
  console.log(label.padEnd(10), word, ((c.user + c.system) / 3000 / set.length).toFixed(3), 'ms CPU per hit')
}

import type { Frontdesk, Principal } from '@frontdesk/core'
import { categoryId } from './dataset.ts'
import type { Vocabulary } from './vocabulary.ts'

/** The classes of search queries the targets speak of. */
export type QueryClass = 'en1' | 'en2' | 'ja1' | 'ja2' | 'common' | 'filtered'

/** Labels of the query classes. */
export const QUERY_CLASS_LABELS: Record<QueryClass, string> = {
  en1: 'English, 1 term, ≤ 1,000 hits',
  en2: 'English, 2 terms, ≤ 1,000 hits',
  ja1: 'Japanese, 1 term, ≤ 1,000 hits',
  ja2: 'Japanese, 2 terms, ≤ 1,000 hits',
  common: 'a term in ≥ 20 % of items',
  filtered: '1 term + category + custom-field filter',
}

/** Search request bodies, by class, with the number of hits each one had. */
export type QuerySets = Record<QueryClass, { body: Record<string, unknown>; total: number }[]>

/**
 * Chooses fixed sets of search queries from the vocabulary by asking the engine how many
 * items each candidate matches (`total`), so the classes hold what their names say at any N:
 * rare words (1–1,000 hits), pairs of commoner words whose intersection is 1–1,000 hits,
 * very common words (≥ 20 % of the visible items), and filtered searches. For the engine's
 * scripts (`packages/adapter-sqlite/scripts/`), which repeat a set; `npm run bench` asks only
 * queries never asked before (`search-classes.ts`).
 */
export async function chooseQueries(frontdesk: Frontdesk, principal: Principal, vocabulary: Vocabulary, visible: number, perClass: number): Promise<QuerySets> {
  const total = async (body: Record<string, unknown>) => {
    const reply = await frontdesk.search(principal, { ...body, size: 1 })
    return reply.body.pagination.total
  }
  const collect = async (candidates: Iterable<Record<string, unknown>>, accept: (n: number) => boolean, max: number, tries: number) => {
    const chosen: QuerySets[QueryClass] = []
    let tried = 0
    for (const body of candidates) {
      if (chosen.length >= max || tried++ >= tries) break
      const n = await total(body)
      if (accept(n)) chosen.push({ body, total: n })
    }
    return chosen
  }
  const rare = (n: number) => n >= 1 && n <= 1000
  const { english, japanese } = vocabulary
  const spread = <T>(list: readonly T[], from: number, count: number): T[] => {
    const out: T[] = []
    const step = Math.max(1, Math.floor((list.length - from) / count))
    for (let i = from; i < list.length && out.length < count; i += step) {
      const value = list[i]
      if (value !== undefined) out.push(value)
    }
    return out
  }
  const pairs = function* (words: readonly string[], from: number, to: number, joiner: string) {
    for (let i = 0; i < 400; i++) {
      const a = words[from + ((i * 7) % (to - from))]
      const b = words[from + ((i * 13 + 5) % (to - from))]
      if (a !== undefined && b !== undefined && a !== b) yield { query: `${a}${joiner}${b}` }
    }
  }
  const categories = ['news', 'blog', 'tech', 'events', 'products']
  return {
    en1: await collect(spread(english, 300, 4 * perClass).map((w) => ({ query: w })), rare, perClass, 6 * perClass),
    ja1: await collect(spread(japanese, 150, 4 * perClass).map((w) => ({ query: w })), rare, perClass, 6 * perClass),
    en2: await collect(pairs(english, 20, 400, ' '), rare, perClass, 6 * perClass),
    ja2: await collect(pairs(japanese, 10, 250, ' '), rare, perClass, 6 * perClass),
    common: await collect(
      interleave(english.slice(0, 80), japanese.slice(0, 60)).map((w) => ({ query: w })),
      (n) => n >= 0.2 * visible,
      perClass,
      140,
    ),
    filtered: await collect(
      interleave(english.slice(20, 200), japanese.slice(10, 150)).map((w, i) => ({
        query: w,
        category_id: categoryId(categories[i % categories.length] ?? 'news'),
        filter: i % 2 === 0 ? { custom_region: { in: ['tokyo', 'osaka'] } } : { custom_reading_minutes: { gte: 10, lt: 30 } },
      })),
      (n) => n >= 1,
      perClass,
      6 * perClass,
    ),
  }
}

function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = []
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x !== undefined) out.push(x)
    if (y !== undefined) out.push(y)
  }
  return out
}

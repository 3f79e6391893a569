import { REGIONS } from './dataset.ts'
import { Prng, Zipf } from './prng.ts'
import type { Vocabulary } from './vocabulary.ts'

/*
 * The benchmark's search queries: classes of queries that never repeat during a run, drawn
 * from the data set's vocabulary. Every class is an endless, deterministic stream (the same
 * on every run and in every process that asks for it), so the in-process measurement, the
 * SQLite FTS5 reference and each HTTPS scenario can each take a part of it that no other part
 * holds: the orchestrator hands out positions, a load worker regenerates the stream up to its
 * position and goes on from there.
 *
 * Query words are drawn by a Zipf law flattened at the top (rank r with weight 1/(r + 101)):
 * users ask for words that are in the text, common ones more often, but the hundred commonest
 * (in 15–100 % of the items) not more often than the hundredth. Classes never share a query:
 * `en1` asks vocabulary words, `prefix` strict prefixes that are no word, `typo` words with one
 * edit that are neither a word nor a prefix of one; the others differ by their number of
 * terms, their filter or their sort. Within a class a query's words (as a set), filter and
 * sort are its identity; asked again, the same identity gets another page or page size
 * (`size` 19, 21, 18, 22… then `from` 20, 40…), so the engine still sees a query it never saw.
 */

/** The query classes, with their labels. */
export const SEARCH_CLASSES = {
  en1: 'English, 1 term',
  en2: 'English, 2 terms',
  en3: 'English, 3 terms',
  prefix: 'English prefix only',
  typo: 'English word with one typo',
  ja1: 'Japanese, 1 word',
  ja2: 'Japanese, 2 words',
  f_eq: 'term + select = value',
  f_num: 'term + number range',
  f_date: 'term + date range',
  f_in: 'term + select in (2–3 values)',
  f_bool: 'term + boolean',
  s_date: 'term, sorted by published_at',
  s_field: 'term, sorted by a custom field',
} as const

/** A query class id. */
export type SearchClass = keyof typeof SEARCH_CLASSES

/** Every class, in report order. */
export const SEARCH_CLASS_IDS = Object.keys(SEARCH_CLASSES) as SearchClass[]

/** The search mix over HTTPS: each class's share of the requests (sums to 100). */
export const SEARCH_MIX: Record<SearchClass, number> = {
  en1: 22, en2: 14, en3: 5, prefix: 5, typo: 5, ja1: 14, ja2: 9,
  f_eq: 4, f_num: 4, f_date: 4, f_in: 4, f_bool: 4, s_date: 3, s_field: 3,
}

/** A POST /v1/cms/search body. */
export type SearchBody = Record<string, unknown>

const FLATTEN = 100
const SIZE_STEPS = [20, 19, 21, 18, 22, 17, 23, 16, 24, 15, 25] as const
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
const DAY = 86_400_000
const FIRST_DAY = Date.UTC(2020, 0, 1)

/** The vocabulary as the streams draw from it. */
export class QueryWords {
  readonly english: readonly string[]
  readonly japanese: readonly string[]
  /** Every English word. */
  readonly englishWords: ReadonlySet<string>
  /** Every prefix of every English word, the words included. */
  readonly englishPrefixes: ReadonlySet<string>
  readonly #englishZipf: Zipf
  readonly #japaneseZipf: Zipf

  constructor(vocabulary: Vocabulary) {
    this.english = vocabulary.english
    this.japanese = vocabulary.japanese
    this.englishWords = new Set(vocabulary.english)
    const prefixes = new Set<string>()
    for (const word of vocabulary.english) for (let i = 1; i <= word.length; i++) prefixes.add(word.slice(0, i))
    this.englishPrefixes = prefixes
    this.#englishZipf = new Zipf(vocabulary.english.length, 1, FLATTEN)
    this.#japaneseZipf = new Zipf(vocabulary.japanese.length, 1, FLATTEN)
  }

  /** An English word. */
  en(prng: Prng): string {
    return this.english[this.#englishZipf.draw(prng)] ?? 'news'
  }

  /** A Japanese word. */
  ja(prng: Prng): string {
    return this.japanese[this.#japaneseZipf.draw(prng)] ?? 'お知らせ'
  }
}

/** One class's endless stream of queries never asked before in it. */
export class QueryStream {
  readonly cls: SearchClass
  readonly #words: QueryWords
  readonly #prng: Prng
  /** Times each identity was asked. */
  readonly #asked = new Map<string, number>()
  #position = 0

  constructor(cls: SearchClass, words: QueryWords) {
    this.cls = cls
    this.#words = words
    let seed = 20_250_101
    for (const char of cls) seed = Math.imul(seed ^ char.charCodeAt(0), 0x01000193) >>> 0
    this.#prng = new Prng(seed)
  }

  /** Queries taken so far. */
  get position(): number {
    return this.#position
  }

  /** The next query. */
  next(): SearchBody {
    this.#position++
    const { identity, body } = this.#draw()
    const asked = this.#asked.get(identity) ?? 0
    this.#asked.set(identity, asked + 1)
    if (asked === 0) return body
    return { ...body, from: 20 * Math.floor(asked / SIZE_STEPS.length), size: SIZE_STEPS[asked % SIZE_STEPS.length] }
  }

  /** Takes `count` queries and drops them (to reach a position another process handed out). */
  skip(count: number): void {
    for (let i = 0; i < count; i++) this.next()
  }

  #draw(): { identity: string; body: SearchBody } {
    const prng = this.#prng
    const words = this.#words
    const plain = (query: string, identity: string) => ({ identity, body: { query } })
    switch (this.cls) {
      case 'en1': {
        const word = words.en(prng)
        return plain(word, word)
      }
      case 'en2':
      case 'en3': {
        const list = distinct(this.cls === 'en2' ? 2 : 3, () => words.en(prng))
        return plain(list.join(' '), [...list].sort().join(' '))
      }
      case 'prefix':
        for (;;) {
          const word = words.en(prng)
          if (word.length < 4) continue
          const prefix = word.slice(0, prng.int(3, word.length - 1))
          if (!words.englishWords.has(prefix)) return plain(prefix, prefix)
        }
      case 'typo':
        for (;;) {
          const typo = withTypo(words.en(prng), prng)
          if (typo !== null && !words.englishPrefixes.has(typo)) return plain(typo, typo)
        }
      case 'ja1': {
        const word = words.ja(prng)
        return plain(word, word)
      }
      case 'ja2': {
        const list = distinct(2, () => words.ja(prng))
        return plain(list.join(' '), [...list].sort().join(' '))
      }
      default: {
        const term = prng.chance(0.55) ? words.en(prng) : words.ja(prng)
        const extra = narrowing(this.cls, prng)
        return { identity: `${term} ${JSON.stringify(extra)}`, body: { query: term, ...extra } }
      }
    }
  }
}

/** `count` different values of `draw`. */
function distinct(count: number, draw: () => string): string[] {
  const list: string[] = []
  while (list.length < count) {
    const value = draw()
    if (!list.includes(value)) list.push(value)
  }
  return list
}

/**
 * The word with one edit (a letter substituted, inserted or deleted) that leaves it at least
 * five letters long, so that the engine tolerates one typo in it; `null` when the word is too short.
 */
function withTypo(word: string, prng: Prng): string | null {
  if (word.length < 5) return null
  const at = prng.int(0, word.length - 1)
  const kind = prng.int(0, word.length > 5 ? 2 : 1)
  const letter = () => LETTERS[prng.int(0, LETTERS.length - 1)] ?? 'x'
  if (kind === 0) {
    let other = letter()
    while (other === word[at]) other = letter()
    return word.slice(0, at) + other + word.slice(at + 1)
  }
  if (kind === 1) return word.slice(0, at) + letter() + word.slice(at)
  return word.slice(0, at) + word.slice(at + 1)
}

/** The filter or sort of a narrowed class (values canonical: `in` values sorted). */
function narrowing(cls: SearchClass, prng: Prng): SearchBody {
  switch (cls) {
    case 'f_eq':
      return { filter: { custom_region: prng.pick(REGIONS) } }
    case 'f_num': {
      const low = prng.int(1, 50)
      return { filter: { custom_reading_minutes: { gte: low, lt: low + prng.int(5, 20) } } }
    }
    case 'f_date': {
      const from = FIRST_DAY + prng.int(0, 2000) * DAY
      return { filter: { custom_event_date: { gte: isoDay(from), lte: isoDay(from + prng.int(30, 365) * DAY) } } }
    }
    case 'f_in': {
      const values = distinct(prng.int(2, 3), () => prng.pick(REGIONS)).sort()
      return { filter: { custom_region: { in: values } } }
    }
    case 'f_bool':
      return { filter: { custom_featured: prng.chance(0.5) } }
    case 's_date':
      return { sort: prng.chance(0.7) ? 'published_at:desc' : 'published_at:asc' }
    case 's_field':
      return { sort: `${prng.chance(0.5) ? 'custom_reading_minutes' : 'custom_event_date'}:${prng.chance(0.6) ? 'desc' : 'asc'}` }
    default:
      return {}
  }
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/**
 * Every class's stream, with where each stands: the orchestrator's copy hands out positions,
 * a load worker's copy is built at the positions it was given.
 */
export class SearchStreams {
  readonly #streams: Map<SearchClass, QueryStream>

  constructor(vocabulary: Vocabulary, positions: Partial<Record<SearchClass, number>> = {}) {
    const words = new QueryWords(vocabulary)
    this.#streams = new Map(SEARCH_CLASS_IDS.map((cls) => [cls, new QueryStream(cls, words)]))
    for (const [cls, position] of Object.entries(positions) as [SearchClass, number][]) this.stream(cls).skip(position)
  }

  /** The stream of a class. */
  stream(cls: SearchClass): QueryStream {
    const stream = this.#streams.get(cls)
    if (stream === undefined) throw new Error(`no query class ${cls}`)
    return stream
  }

  /** Where every stream stands. */
  positions(): Record<SearchClass, number> {
    return Object.fromEntries(SEARCH_CLASS_IDS.map((cls) => [cls, this.stream(cls).position])) as Record<SearchClass, number>
  }
}

/**
 * The class of each request of a mix, in turn: a fixed shuffle of 100 slots by the shares
 * (`request % 100` picks the slot), so any stretch of requests holds about the shares.
 */
export function mixSlots(shares: Partial<Record<SearchClass, number>>): SearchClass[] {
  const slots: SearchClass[] = []
  for (const [cls, share] of Object.entries(shares) as [SearchClass, number][]) for (let i = 0; i < share; i++) slots.push(cls)
  const prng = new Prng(7)
  for (let i = slots.length - 1; i > 0; i--) {
    const j = prng.int(0, i)
    const a = slots[i]
    const b = slots[j]
    if (a !== undefined && b !== undefined) {
      slots[i] = b
      slots[j] = a
    }
  }
  return slots
}

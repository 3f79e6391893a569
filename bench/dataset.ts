import type { ImportItem } from '@frontdesk/core'
import { Prng, Zipf } from './prng.ts'
import type { Vocabulary } from './vocabulary.ts'
import { buildVocabulary } from './vocabulary.ts'

/*
 * The benchmark's data set: 20 categories with five custom fields each (number, date, select,
 * boolean, text), 200 tags, one inquiry category, and N articles in English or Japanese with
 * HTML bodies of about 1–2 KB, mostly published, some drafts and some scheduled. Everything is
 * drawn from a seeded generator, so every run imports the same records.
 */

/** Codes of the 20 categories. */
export const CATEGORY_CODES = [
  'news', 'press', 'blog', 'events', 'products', 'careers', 'investors', 'tech', 'casestudies', 'webinars',
  'seminars', 'releases', 'notices', 'faq', 'interviews', 'columns', 'reports', 'recipes', 'travel', 'sports',
] as const

/** Options of the select field `region`. */
export const REGIONS = ['tokyo', 'osaka', 'nagoya', 'fukuoka', 'sapporo', 'online'] as const

/** The code of the benchmark's inquiry category. */
export const INQUIRY_CATEGORY = 'general'

/** A word that only the first article's title holds: the "first correct search" probe. */
export const MARKER_TERM = 'frontdeskbenchmarker'

const ENGLISH_SHARE = 0.55
const DRAFT_SHARE = 0.08
const SCHEDULED_SHARE = 0.04
const TAIL_WORDS = 6000
const PAST_START = Date.UTC(2020, 0, 1)
const PAST_SPAN = Date.UTC(2026, 0, 1) - PAST_START
// Far enough ahead that scheduled items stay scheduled whenever the benchmark runs.
const FUTURE_START = Date.UTC(2031, 0, 1)
const PARTICLES = ['の', 'を', 'に', 'は', 'が', 'と', 'で', 'も', 'から', 'まで']
const ENDINGS = ['します', 'しました', 'です', 'について', 'のお知らせ', 'を開始しました']

/** The id of a category's custom field. */
export function fieldId(categoryCode: string, name: string): string {
  return `fld_${categoryCode}_${name}`
}

/** The id of a category. */
export function categoryId(code: string): string {
  return `cat_${code}`
}

/** What the benchmark needs to know about the generated records to build its requests. */
export interface DatasetFacts {
  /** Ids of the articles every reader can see (published, not scheduled), in generation order. */
  visibleIds: string[]
  /** The id of the article holding `MARKER_TERM`. */
  markerId: string
  /** All 200 tag names, most used first. */
  tags: string[]
  vocabulary: Vocabulary
}

/** A deterministic data set of `items` articles. */
export class Dataset {
  readonly facts: DatasetFacts
  readonly #items: number
  readonly #seed: number
  readonly #englishZipf: Zipf
  readonly #japaneseZipf: Zipf
  readonly #tagZipf = new Zipf(100, 1)

  constructor(items: number, seed = 20_240_601) {
    this.#items = items
    this.#seed = seed
    const vocabulary = buildVocabulary(seed, TAIL_WORDS)
    this.#englishZipf = new Zipf(vocabulary.english.length, 1)
    this.#japaneseZipf = new Zipf(vocabulary.japanese.length, 1)
    const tags = interleave(vocabulary.english.slice(40, 140), vocabulary.japanese.slice(20, 120))
    this.facts = { visibleIds: [], markerId: contentId(0), tags, vocabulary }
  }

  /** Every record to import, in dependency order (categories, tags, inquiry category, articles). */
  *records(): Generator<ImportItem> {
    let n = 0
    const item = (record: unknown): ImportItem => ({ record, location: `record ${++n}` })
    for (const [index, code] of CATEGORY_CODES.entries()) yield item(categoryRecord(code, index))
    for (const name of this.facts.tags) yield item({ kind: 'tag', name })
    yield item({ kind: 'inquiry_category', code: INQUIRY_CATEGORY, name: 'General questions', message: 'Thank you, we will reply soon.' })
    const prng = new Prng(this.#seed)
    for (let i = 0; i < this.#items; i++) yield item(this.#content(prng, i))
  }

  #content(prng: Prng, index: number): Record<string, unknown> {
    const english = index === 0 || prng.chance(ENGLISH_SHARE)
    const code = prng.pick(CATEGORY_CODES)
    const roll = index === 0 ? 1 : prng.next()
    const status = roll < DRAFT_SHARE ? 'draft' : 'published'
    const scheduled = status === 'published' && roll < DRAFT_SHARE + SCHEDULED_SHARE
    const at = scheduled ? FUTURE_START + Math.floor(prng.next() * PAST_SPAN) : PAST_START + Math.floor(prng.next() * PAST_SPAN)
    const id = contentId(index)
    if (status === 'published' && !scheduled) this.facts.visibleIds.push(id)
    const title = index === 0 ? `${this.#title(prng, true)} ${MARKER_TERM}` : this.#title(prng, english)
    const summary = this.#sentence(prng, english) + (prng.chance(0.5) ? ` ${this.#sentence(prng, english)}` : '')
    const tagCount = prng.int(0, 5)
    const tags = new Set<string>()
    for (let t = 0; t < tagCount; t++) {
      // Mostly tags of the article's language (English tags sit at even positions).
      const sameLanguage = prng.chance(0.8) === english
      const rank = this.#tagZipf.draw(prng)
      const name = this.facts.tags[rank * 2 + (sameLanguage ? 0 : 1)]
      if (name !== undefined) tags.add(name)
    }
    const content: Record<string, unknown> = {}
    if (prng.chance(0.9)) content['reading_minutes'] = prng.int(1, 60)
    if (prng.chance(0.7)) content['event_date'] = new Date(PAST_START + Math.floor(prng.next() * PAST_SPAN)).toISOString().slice(0, 10)
    if (prng.chance(0.95)) content['region'] = prng.pick(REGIONS)
    content['featured'] = prng.chance(0.1)
    if (prng.chance(0.6)) content['subtitle'] = this.#sentence(prng, english)
    return {
      kind: 'content',
      id,
      slug: `${code}-${index.toString(36)}`,
      title,
      category_code: code,
      status,
      published_at: status === 'draft' && prng.chance(0.5) ? null : new Date(at).toISOString(),
      author_name: english ? `Author ${prng.int(1, 300)}` : `著者 ${prng.int(1, 300)}`,
      tags: [...tags],
      summary,
      body: this.#body(prng, english),
      content,
      meta: { og_title: title, og_description: summary.slice(0, 120) },
    }
  }

  #word(prng: Prng, english: boolean): string {
    const words = english ? this.facts.vocabulary.english : this.facts.vocabulary.japanese
    return words[(english ? this.#englishZipf : this.#japaneseZipf).draw(prng)] ?? ''
  }

  #title(prng: Prng, english: boolean): string {
    if (english) {
      const words = Array.from({ length: prng.int(5, 9) }, () => this.#word(prng, true))
      return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ')
    }
    let title = ''
    const count = prng.int(2, 4)
    for (let i = 0; i < count; i++) title += this.#word(prng, false) + (i < count - 1 ? prng.pick(PARTICLES) : '')
    return title + prng.pick(ENDINGS)
  }

  #sentence(prng: Prng, english: boolean): string {
    if (english) {
      const words = Array.from({ length: prng.int(8, 16) }, () => this.#word(prng, true))
      const text = words.join(' ')
      return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
    }
    let text = ''
    const count = prng.int(4, 8)
    for (let i = 0; i < count; i++) text += this.#word(prng, false) + (i < count - 1 ? prng.pick(PARTICLES) : '')
    return `${text}${prng.pick(ENDINGS)}。`
  }

  /** An HTML body of about 1–2 KB (UTF-8): headings, paragraphs, a list, a link. */
  #body(prng: Prng, english: boolean): string {
    const target = prng.int(1000, 2000)
    const parts: string[] = [`<h2>${this.#title(prng, english)}</h2>`]
    let size = Buffer.byteLength(parts[0] ?? '')
    while (size < target) {
      const kind = prng.next()
      let part: string
      if (kind < 0.7) {
        const sentences = Array.from({ length: prng.int(1, 3) }, () => this.#sentence(prng, english)).join(english ? ' ' : '')
        part = `<p>${prng.chance(0.2) ? `<strong>${this.#word(prng, english)}</strong> ` : ''}${sentences}</p>`
      } else if (kind < 0.85) {
        part = `<ul>${Array.from({ length: prng.int(2, 4) }, () => `<li>${this.#sentence(prng, english)}</li>`).join('')}</ul>`
      } else {
        part = `<p><a href="https://example.com/${this.#word(prng, true)}/${prng.int(1, 9999)}">${this.#sentence(prng, english)}</a></p>`
      }
      parts.push(part)
      size += Buffer.byteLength(part)
    }
    return parts.join('\n')
  }
}

/** The id of the `index`-th article (ids are given on import, so they are the same every run). */
export function contentId(index: number): string {
  return `cnt_bench${index.toString().padStart(8, '0')}`
}

function categoryRecord(code: string, index: number): Record<string, unknown> {
  return {
    kind: 'category',
    id: categoryId(code),
    code,
    name: code.charAt(0).toUpperCase() + code.slice(1),
    description: `Articles of the ${code} section`,
    sort: index,
    fields: [
      { id: fieldId(code, 'reading_minutes'), name: 'reading_minutes', type: 'number' },
      { id: fieldId(code, 'event_date'), name: 'event_date', type: 'date' },
      { id: fieldId(code, 'region'), name: 'region', type: 'select', options: [...REGIONS] },
      { id: fieldId(code, 'featured'), name: 'featured', type: 'boolean' },
      { id: fieldId(code, 'subtitle'), name: 'subtitle', type: 'text' },
    ],
  }
}

function interleave(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x !== undefined) out.push(x)
    if (y !== undefined) out.push(y)
  }
  return out
}

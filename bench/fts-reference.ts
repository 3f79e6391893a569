import type { Database as SqliteDatabase, Statement } from 'better-sqlite3'
import Database from 'better-sqlite3'
import type { QueryTerm } from '@frontdesk/core'
import { forEachIndexTerm, isCjkChar, parseQueryTerms, stripHtml } from '@frontdesk/core'
import { Dataset } from './dataset.ts'
import { FIELD_BOOST } from './engine.ts'
import { OneEditWords } from './one-edit-words.ts'
import type { SearchBody } from './search-classes.ts'

/*
 * A yardstick for the search engine, not a second engine: SQLite FTS5 over the same items and
 * the same terms. Each searched field holds the analyzer's terms of that field (core's
 * `forEachIndexTerm`: words, and CJK bigrams plus a run's last character) separated by
 * spaces, and FTS5 splits on spaces only, so both match the very same terms. Ranking is
 * `bm25()` with the engine's field weights; visibility, filters and sorts are SQL over a table
 * of the items' filter columns; `total` is an exact `count(*)`; the page has a title highlight.
 * A query word matches as a prefix (`"word"*`, as every engine query word does); FTS5 has no
 * typo tolerance, so a word long enough for one typo becomes an OR group of the prefix and
 * the indexed words one edit away (see `OneEditWords`), as the engine expands it.
 */

/** The searched fields, in the engine's order (checked against its weights when the reference is built). */
const COLUMNS = ['title', 'summary', 'body', 'tags', 'custom'] as const
/** Custom fields by name (every benchmark category has these five). */
const FIELD_COLUMNS: Record<string, string> = { reading_minutes: 'reading_minutes', event_date: 'event_date', region: 'region', featured: 'featured', subtitle: 'subtitle' }
const OPERATORS: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' }
// Hint: only spaces separate terms; every other character (letters, digits, marks, the `'.:` inside words) is part of one.
const TOKENIZE = `unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'`

/** One search's answer. */
export interface FtsAnswer {
  total: number
  ids: string[]
  titles: string[]
}

/** What building the reference took. */
export interface FtsBuild {
  items: number
  seconds: number
  bytes: number
  /** Distinct indexed words (the vocabulary typos are expanded against). */
  words: number
}

/** The FTS5 reference over one database file. */
export class FtsReference {
  readonly build: FtsBuild
  readonly #db: SqliteDatabase
  readonly #typos: OneEditWords
  readonly #statements = new Map<string, Statement>()
  readonly #weights: string

  constructor(db: SqliteDatabase, typos: OneEditWords, build: FtsBuild) {
    this.#db = db
    this.#typos = typos
    this.build = build
    this.#weights = COLUMNS.map((column) => FIELD_BOOST[column]).join(', ')
  }

  /** One page of a search request body (as POST /v1/cms/search takes it) at `now` (ISO 8601). */
  search(body: SearchBody, now: string): FtsAnswer {
    const terms = parseQueryTerms(String(body['query'] ?? ''))
    if (terms.length === 0) return { total: 0, ids: [], titles: [] }
    const match = terms.map((term) => this.#match(term)).join(' AND ')
    const params: unknown[] = [match, now]
    const where = ['fts MATCH ?', 'i.visible_from <= ?', ...filterClauses(body['filter'], params)].join(' AND ')
    const from = typeof body['from'] === 'number' ? body['from'] : 0
    const size = typeof body['size'] === 'number' ? body['size'] : 20
    const total = this.#statement(`SELECT count(*) FROM fts JOIN items i ON i.rowid = fts.rowid WHERE ${where}`).pluck().get(...params) as number
    const rows = this.#statement(`SELECT i.id, fts.rowid FROM fts JOIN items i ON i.rowid = fts.rowid WHERE ${where} ORDER BY ${this.#order(body['sort'])} LIMIT ? OFFSET ?`)
      .raw()
      .all(...params, size, from) as [string, number][]
    // Hint: highlights of the page only; in the sorted statement SQLite would compute one for every match before sorting.
    const highlight = this.#statement(`SELECT highlight(fts, 0, '<mark>', '</mark>') FROM fts WHERE fts MATCH ? AND rowid = ?`).pluck()
    return { total, ids: rows.map((row) => row[0]), titles: rows.map((row) => highlight.get(match, row[1]) as string) }
  }

  /** Closes the reference's database. */
  close(): void {
    this.#db.close()
  }

  #match(term: QueryTerm): string {
    if (term.kind === 'word') {
      const alternatives = [`${quoted(term.term)}*`, ...this.#typos.of(term).map(quoted)]
      return alternatives.length === 1 ? (alternatives[0] ?? '') : `(${alternatives.join(' OR ')})`
    }
    if (term.prefix) return `${quoted(term.grams[0] ?? '')}*`
    return [...new Set(term.grams)].map(quoted).join(' AND ')
  }

  #order(sort: unknown): string {
    const [key = 'relevance', direction = 'desc'] = typeof sort === 'string' ? sort.split(':') : []
    const dir = direction === 'asc' ? 'ASC' : 'DESC'
    if (key === 'relevance') return `bm25(fts, ${this.#weights}), i.id`
    if (key === 'published_at') return `i.published_at ${dir}, i.id ${dir}`
    const column = FIELD_COLUMNS[key.slice('custom_'.length)]
    if (column === undefined) throw new Error(`FTS reference: no sort ${String(sort)}`)
    return `i.${column} IS NULL, i.${column} ${dir}, i.id ${dir}`
  }

  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql)
    if (statement === undefined) {
      statement = this.#db.prepare(sql)
      this.#statements.set(sql, statement)
    }
    return statement
  }
}

function quoted(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}

/** SQL conditions of a request's `filter` (`custom_<name>`: a value, or `eq`/`gt`/`gte`/`lt`/`lte`/`in`), their values appended to `params`. */
function filterClauses(filter: unknown, params: unknown[]): string[] {
  if (typeof filter !== 'object' || filter === null) return []
  const clauses: string[] = []
  const value = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)
  for (const [key, condition] of Object.entries(filter)) {
    const column = FIELD_COLUMNS[key.slice('custom_'.length)]
    if (column === undefined) throw new Error(`FTS reference: no filter ${key}`)
    const operators: [string, unknown][] = typeof condition === 'object' && condition !== null && !Array.isArray(condition) ? Object.entries(condition) : [['eq', condition]]
    for (const [op, operand] of operators) {
      if (op === 'in' && Array.isArray(operand)) {
        clauses.push(`i.${column} IN (${operand.map(() => '?').join(', ')})`)
        params.push(...operand.map(value))
        continue
      }
      const sql = OPERATORS[op]
      if (sql === undefined) throw new Error(`FTS reference: no operator ${op}`)
      clauses.push(`i.${column} ${sql} ?`)
      params.push(value(operand))
    }
  }
  return clauses
}

/**
 * Builds the reference at `path` (a new file) over the benchmark's data set of `items`
 * articles (generated again: the same records the import wrote), and opens it for searching
 * with a page cache and memory map large enough to hold it, read through once.
 */
export function buildFtsReference(path: string, items: number, log: (line: string) => void): FtsReference {
  const engineFields = Object.keys(FIELD_BOOST).join(',')
  if (engineFields !== COLUMNS.join(',')) throw new Error(`FTS reference: the engine's fields are now ${engineFields}; update COLUMNS`)
  const started = performance.now()
  const db = new Database(path)
  db.pragma('journal_mode = OFF')
  db.pragma('synchronous = OFF')
  db.pragma('cache_size = -262144')
  db.pragma('mmap_size = 4294967296')
  db.exec(`CREATE VIRTUAL TABLE fts USING fts5(${COLUMNS.join(', ')}, tokenize = "${TOKENIZE}", prefix = '2 3')`)
  db.exec(`CREATE TABLE items (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, category_id TEXT NOT NULL, published_at TEXT, visible_from TEXT,
    reading_minutes REAL, event_date TEXT, region TEXT, featured INTEGER, subtitle TEXT)`)
  const insertText = db.prepare(`INSERT INTO fts (rowid, ${COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?)`)
  const insertItem = db.prepare('INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
  const words = new Set<string>()
  const terms = (text: string): string => {
    const out: string[] = []
    forEachIndexTerm(text, (term, cjk) => {
      out.push(term)
      if (!cjk) words.add(term)
    })
    return out.join(' ')
  }
  const dataset = new Dataset(items)
  let rowid = 0
  const write = db.transaction(() => {
    for (const { record } of dataset.records()) {
      const r = record as Record<string, unknown>
      if (r['kind'] !== 'content') continue
      rowid++
      const content = (r['content'] ?? {}) as Record<string, unknown>
      const tags = (r['tags'] ?? []) as string[]
      const custom = [content['region'], content['subtitle']].filter((v) => typeof v === 'string').join('\n')
      insertText.run(rowid, terms(String(r['title'])), terms(String(r['summary'])), terms(stripHtml(String(r['body']))), terms(tags.join('\n')), terms(custom))
      const publishedAt = (r['published_at'] ?? null) as string | null
      const featured = content['featured']
      insertItem.run(rowid, r['id'], `cat_${String(r['category_code'])}`, publishedAt, r['status'] === 'published' ? publishedAt : null,
        content['reading_minutes'] ?? null, content['event_date'] ?? null, content['region'] ?? null, typeof featured === 'boolean' ? (featured ? 1 : 0) : null, content['subtitle'] ?? null)
    }
  })
  write()
  db.exec(`INSERT INTO fts (fts) VALUES ('optimize')`)
  // Read once through, so that searches find the index in memory as the engine's is.
  for (const table of ['fts_data', 'fts_idx', 'fts_docsize', 'fts_content', 'items']) db.prepare(`SELECT count(*) FROM ${table}`).get()
  db.prepare('SELECT sum(length(block)) FROM fts_data').get()
  const bytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number)
  const build = { items: rowid, seconds: (performance.now() - started) / 1000, bytes, words: words.size }
  log(`FTS5 reference: ${rowid} items, ${words.size} words, ${(bytes / 1048576).toFixed(0)} MB in ${build.seconds.toFixed(1)} s`)
  return new FtsReference(db, new OneEditWords(words), build)
}

/**
 * Opens a reference `buildFtsReference` built before (over the same data set, by the same
 * analyzer), for timing scripts run again and again (`bench/micro/search-vs-fts.ts`).
 */
export function openFtsReference(path: string): FtsReference {
  const started = performance.now()
  const db = new Database(path)
  db.pragma('cache_size = -262144')
  db.pragma('mmap_size = 4294967296')
  db.exec(`CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, fts, 'row')`)
  const words = (db.prepare('SELECT term FROM temp.vocabulary').pluck().all() as string[]).filter((term) => !isCjkChar(term))
  for (const table of ['fts_data', 'fts_idx', 'fts_docsize', 'fts_content', 'items']) db.prepare(`SELECT count(*) FROM ${table}`).get()
  db.prepare('SELECT sum(length(block)) FROM fts_data').get()
  const items = db.prepare('SELECT count(*) FROM items').pluck().get() as number
  const bytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number)
  return new FtsReference(db, new OneEditWords(words), { items, seconds: (performance.now() - started) / 1000, bytes, words: words.length })
}

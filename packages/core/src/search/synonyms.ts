import * as v from 'valibot'
import { invalidInput } from '../admin/invalid-input.ts'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../validation/storable-text.ts'
import type { QueryTerm } from './query-terms.ts'
import { parseQuery } from './query-terms.ts'

/*
 * A tenant's synonyms (README "Synonyms"): groups written one a line,
 *   `a, b, c`        two-way: each entry finds the others;
 *   `a, b => c, d`   one-way: `a` and `b` find `c` and `d`, not the reverse;
 *   `# …`            a comment (a line whose first character other than blanks is `#`).
 * Entries are compared after the analyzer's normalisation (`Car` is `car`, `コンピューター` is
 * `コンピュータ`, `ぱそこん` is `パソコン`). An entry that finds others (a two-way entry, or one
 * left of `=>`) is one word or one CJK run, as a query term is; an entry that is only found
 * (right of `=>`) may have up to `SYNONYM_LIMITS.entryWords` words, all of which an item must
 * then contain. Synonyms apply one step: a word finds the entries of the groups that name it,
 * never the synonyms of those, so a chain or a loop (`a => b` and `b => a`) never grows.
 */

/** The bounds of a tenant's synonyms: a set beyond them is refused whole, nothing changed. */
export const SYNONYM_LIMITS = {
  /** Lines of the file, comments and blank lines included. */
  lines: 10_000,
  /** Characters of one line. */
  lineLength: 2_000,
  /** Entries of one group. */
  groupEntries: 32,
  /** Characters of one entry. */
  entryLength: 100,
  /** Words (or CJK runs) of one entry. */
  entryWords: 4,
  /** Other entries one word finds, over every group that names it. */
  perWord: 16,
} as const

/** One group as read from a line: the entries as written (trimmed, inner blanks as one space). */
export type SynonymGroup = { kind: 'two-way'; entries: string[] } | { kind: 'one-way'; from: string[]; to: string[] }

/** The synonyms one query term may match, by the key of the term (see `synonymKeyOf`): each alternative a list of terms to match together. */
export interface SynonymSet {
  readonly byKey: ReadonlyMap<string, readonly (readonly QueryTerm[])[]>
  /** The stored lines the set was made from, in order (as `formatSynonymGroup` writes them). */
  readonly lines: readonly string[]
}

/** A set with no synonyms. */
export const NO_SYNONYMS: SynonymSet = { byKey: new Map(), lines: [] }

/**
 * The stored form of a tenant's synonyms (what the store keeps and an export writes): one
 * line per group, as `formatSynonymGroup` writes it.
 */
export const SynonymLinesSchema = v.pipe(
  v.array(
    v.pipe(
      v.string('must be a string'),
      v.maxLength(SYNONYM_LIMITS.lineLength, `must be at most ${SYNONYM_LIMITS.lineLength} characters`),
      v.check(isStorableText, UNSTORABLE_TEXT_MESSAGE),
    ),
    'must be an array of strings',
  ),
  v.maxLength(SYNONYM_LIMITS.lines, `must have at most ${SYNONYM_LIMITS.lines} groups`),
)

const SEPARATOR = /[,，、]/
const SPACES = /\s+/gu

/**
 * The groups of a synonyms file (see above), checked: throws one `UsageError` naming the first
 * problem and its line (`synonyms: line 3: …`) for too many lines, a line too long, more than
 * one `=>`, an empty entry or group, an entry that normalises to no word, an entry of too many
 * words, a multi-word entry that would have to find others, a group that adds nothing (all its
 * entries the same word), or a word that would find more than `SYNONYM_LIMITS.perWord` others.
 * Never anything else, whatever the text (a property test holds it).
 */
export function parseSynonyms(text: string): SynonymGroup[] {
  let lineCount = 1
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineCount++
  if (text.endsWith('\n')) lineCount--
  if (lineCount > SYNONYM_LIMITS.lines) {
    throw new UsageError(`synonyms: the file has ${lineCount} lines, more than the ${SYNONYM_LIMITS.lines} allowed (comments and blank lines included); nothing was changed`)
  }
  const groups: SynonymGroup[] = []
  const lines = text.split('\n')
  for (let n = 0; n < lines.length; n++) {
    const group = parseLine(lines[n] ?? '', `line ${n + 1}`)
    if (group !== null) groups.push(group)
  }
  compile(groups, true)
  return groups
}

/** `parseSynonyms` of stored lines (`SynonymLinesSchema`), each named by its place (`groups[3]`). */
export function parseSynonymLines(lines: readonly string[], where = 'synonyms'): SynonymGroup[] {
  const parsed = v.safeParse(SynonymLinesSchema, lines)
  if (!parsed.success) throw invalidInput(where, [{ field: 'groups', message: parsed.issues[0]?.message ?? 'must be an array of strings' }])
  const groups: SynonymGroup[] = []
  for (let n = 0; n < parsed.output.length; n++) {
    const group = parseLine(parsed.output[n] ?? '', `groups[${n}]`, where)
    if (group !== null) groups.push(group)
  }
  compile(groups, true, where)
  return groups
}

/** A group as one line of the file format (`a, b` or `a => b, c`). */
export function formatSynonymGroup(group: SynonymGroup): string {
  return group.kind === 'two-way' ? group.entries.join(', ') : `${group.from.join(', ')} => ${group.to.join(', ')}`
}

/**
 * The set the stored lines describe, for searches. Lenient: a line that no longer passes the
 * checks (an analyzer of a later version that normalises an entry to nothing) is left out
 * rather than failing every search.
 */
export function synonymSetOf(lines: readonly string[]): SynonymSet {
  if (lines.length === 0) return NO_SYNONYMS
  const groups: SynonymGroup[] = []
  for (const line of lines) {
    try {
      const group = parseLine(line, 'stored')
      if (group !== null) groups.push(group)
    } catch {
      // Left out (see above).
    }
  }
  return { byKey: compile(groups, false), lines: [...lines] }
}

/** The key a query term's synonyms are found by: a word without a compound, or a CJK run; `null`: the term has none. */
export function synonymKeyOf(term: QueryTerm): string | null {
  if (term.kind === 'cjk') return `c${term.text}`
  return term.joined === null ? `w${term.term}` : null
}

/**
 * At most this many synonym terms are added to one query (its earlier words first): with
 * `SYNONYM_LIMITS` a query of many words that all have synonyms would otherwise hand an engine
 * thousands of terms to look up.
 */
export const MAX_QUERY_SYNONYM_TERMS = 64

/**
 * `terms` with the synonyms `set` gives each (`QueryTerm.synonyms`); the same array when none
 * has any. Excluded terms (`-word`) are not given synonyms: they exclude what was typed.
 */
export function withSynonyms(terms: readonly QueryTerm[], set: SynonymSet): QueryTerm[] {
  if (set.byKey.size === 0) return terms as QueryTerm[]
  let out: QueryTerm[] | null = null
  let budget = MAX_QUERY_SYNONYM_TERMS
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]
    if (term === undefined) continue
    const key = synonymKeyOf(term)
    const found = key === null ? undefined : set.byKey.get(key)
    if (found === undefined) continue
    const synonyms: (readonly QueryTerm[])[] = []
    for (const alternative of found) {
      if (alternative.length > budget) break
      budget -= alternative.length
      synonyms.push(alternative)
    }
    if (synonyms.length === 0) continue
    out ??= terms.slice()
    // A run's spelling variants (`compoundVariants`) stay first.
    out[i] = { ...term, synonyms: term.synonyms === undefined ? synonyms : [...term.synonyms, ...synonyms] }
  }
  return out ?? (terms as QueryTerm[])
}

/** One analysed entry: its terms (as a query would have them, typo- and stem-free) and its key. */
interface Entry {
  text: string
  terms: QueryTerm[]
  /** The key a query term finds it by (`synonymKeyOf`), `null` for an entry of several terms or a compound. */
  key: string | null
  /** Names the entry after normalisation: equal for equal entries. */
  id: string
}

function parseLine(raw: string, location: string, where = 'synonyms'): SynonymGroup | null {
  const line = raw.trim()
  if (line === '' || line.startsWith('#')) return null
  const fail = (message: string): never => {
    throw invalidInput(where, [{ field: location, message }])
  }
  if (line.length > SYNONYM_LIMITS.lineLength) fail(`is longer than ${SYNONYM_LIMITS.lineLength} characters`)
  if (!isStorableText(line)) fail(UNSTORABLE_TEXT_MESSAGE)
  const sides = line.split('=>')
  if (sides.length > 2) fail('has more than one "=>" (write one group a line)')
  const entriesOf = (side: string, what: string): string[] => {
    const entries = side.split(SEPARATOR).map((entry) => entry.trim().replace(SPACES, ' '))
    if (entries.length === 1 && entries[0] === '') fail(`has nothing ${what}`)
    if (entries.some((entry) => entry === '')) fail('has an empty entry (two commas in a row, or one at an end)')
    if (entries.length > SYNONYM_LIMITS.groupEntries) fail(`has more than ${SYNONYM_LIMITS.groupEntries} entries`)
    return entries
  }
  if (sides.length === 1) {
    const entries = entriesOf(line, 'in it')
    const analysed = entries.map((entry) => analyse(entry, fail))
    for (const entry of analysed) if (entry.key === null) fail(`"${entry.text}" is several words: a group of two-way synonyms is single words (write "${entry.text}" right of "=>": "word => ${entry.text}")`)
    if (new Set(analysed.map((entry) => entry.id)).size < 2) fail('names only one word: a group needs two different ones')
    return { kind: 'two-way', entries }
  }
  const from = entriesOf(sides[0] ?? '', 'before "=>"')
  const to = entriesOf(sides[1] ?? '', 'after "=>"')
  const sources = from.map((entry) => analyse(entry, fail))
  const targets = to.map((entry) => analyse(entry, fail))
  for (const entry of sources) if (entry.key === null) fail(`"${entry.text}" is several words: only an entry right of "=>" may be`)
  if (targets.every((target) => sources.some((source) => source.id === target.id))) fail('adds nothing: every entry after "=>" is one before it')
  return { kind: 'one-way', from, to }
}

function analyse(text: string, fail: (message: string) => never): Entry {
  if (text.length > SYNONYM_LIMITS.entryLength) fail(`"${text.slice(0, 20)}…" is longer than ${SYNONYM_LIMITS.entryLength} characters`)
  const { terms: typed, excluded } = parseQuery(text)
  // A `-` before a word is part of what was written here, not an exclusion: its word counts.
  const terms = [...typed, ...excluded].map(plainTerm)
  if (terms.length === 0) fail(`"${text}" has no word (only punctuation, symbols or emoji)`)
  if (terms.length > SYNONYM_LIMITS.entryWords) fail(`"${text}" has more than ${SYNONYM_LIMITS.entryWords} words`)
  const only = terms.length === 1 ? terms[0] : undefined
  const key = only === undefined ? null : synonymKeyOf(only)
  return { text, terms, key, id: terms.map((t) => (t.kind === 'word' ? `w${t.term}:${t.joined ?? ''}` : `c${t.text}`)).join(' ') }
}

/** A term as a synonym matches it: as typed, without typos or other word forms. */
function plainTerm(term: QueryTerm): QueryTerm {
  return term.kind === 'word' ? { kind: 'word', term: term.term, fuzzy: 0, stem: null, joined: term.joined } : { kind: 'cjk', text: term.text, grams: term.grams, prefix: term.prefix }
}

/**
 * What each key finds: the entries of every group naming it, itself left out, each once, in
 * the order of the groups. With `strict`, more than `SYNONYM_LIMITS.perWord` for one key is an
 * error naming the key; else the first ones are kept.
 */
function compile(groups: readonly SynonymGroup[], strict: boolean, where = 'synonyms'): Map<string, QueryTerm[][]> {
  const byKey = new Map<string, { ids: Set<string>; alternatives: QueryTerm[][] }>()
  const never = (message: string): never => {
    throw new UsageError(message)
  }
  const add = (source: Entry, target: Entry): void => {
    const key = source.key
    if (key === null || target.id === source.id) return
    let found = byKey.get(key)
    if (found === undefined) {
      found = { ids: new Set(), alternatives: [] }
      byKey.set(key, found)
    }
    if (found.ids.has(target.id)) return
    if (found.alternatives.length >= SYNONYM_LIMITS.perWord) {
      if (!strict) return
      const details: ErrorDetail[] = [{ field: 'groups', message: `"${source.text}" would find more than ${SYNONYM_LIMITS.perWord} other entries over all its groups` }]
      throw invalidInput(where, details)
    }
    found.ids.add(target.id)
    found.alternatives.push(target.terms)
  }
  for (const group of groups) {
    if (group.kind === 'two-way') {
      const entries = group.entries.map((entry) => analyse(entry, never))
      for (const source of entries) for (const target of entries) add(source, target)
    } else {
      const targets = group.to.map((entry) => analyse(entry, never))
      for (const source of group.from.map((entry) => analyse(entry, never))) for (const target of targets) add(source, target)
    }
  }
  return new Map([...byKey].map(([key, { alternatives }]) => [key, alternatives]))
}

// Hint: per expanded terms array (one per request, or remembered with the set): made once, not once per highlighted item.
const HIGHLIGHT_TERMS = new WeakMap<readonly QueryTerm[], readonly QueryTerm[]>()

/**
 * The terms a highlighter marks for `terms`: the terms, then the terms of each of their
 * synonyms, so that a word found as a synonym is marked where the item has it; each once
 * (two words typed apart share their joined form, see `parseQuery`).
 */
export function highlightTermsOf(terms: readonly QueryTerm[]): readonly QueryTerm[] {
  if (!terms.some((term) => (term.synonyms?.length ?? 0) > 0)) return terms
  let marked = HIGHLIGHT_TERMS.get(terms)
  if (marked === undefined) {
    marked = [...new Set([...terms, ...terms.flatMap((term) => (term.synonyms ?? []).flat())])]
    HIGHLIGHT_TERMS.set(terms, marked)
  }
  return marked
}

/** How many tenants' sets one frontdesk keeps (then it starts afresh: a simple bound). */
const MAX_KEPT_SETS = 10_000

/**
 * The synonyms of each tenant as of a revision, and the expanded terms of recent queries: a
 * tenant's set is read and compiled once per revision of the tenant (which every change of
 * its synonyms moves, from any process), not once per search.
 */
export class SynonymSets {
  readonly #sets = new Map<string, { revision: number; set: SynonymSet; expanded: WeakMap<readonly QueryTerm[], QueryTerm[]> }>()

  /** `terms` with the tenant's synonyms (`withSynonyms`), its set read through `read` when the tenant's `revision` is not the one it was kept at. */
  async expand(tenantId: string, revision: number, terms: readonly QueryTerm[], read: () => Promise<string[]>): Promise<QueryTerm[]> {
    let kept = this.#sets.get(tenantId)
    if (kept === undefined || kept.revision !== revision) {
      const set = synonymSetOf(await read())
      if (this.#sets.size >= MAX_KEPT_SETS) this.#sets.clear()
      kept = { revision, set, expanded: new WeakMap() }
      this.#sets.set(tenantId, kept)
    }
    if (kept.set.byKey.size === 0) return terms as QueryTerm[]
    let expanded = kept.expanded.get(terms)
    if (expanded === undefined) {
      expanded = withSynonyms(terms, kept.set)
      kept.expanded.set(terms, expanded)
    }
    return expanded
  }
}

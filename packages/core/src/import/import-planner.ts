import { isoAt } from '../app/clock.ts'
import { invalidInput } from '../admin/invalid-input.ts'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { DEFAULT_INQUIRY_MESSAGE } from '../inquiry/inquiry-created.ts'
import type { CategoryRecord, FieldDefinition } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { InquiryCategoryRecord } from '../model/inquiry.ts'
import type { Tag, TagRecord } from '../model/tag.ts'
import type { ContentWriter } from '../port/store.ts'
import { newId } from '../util/ids.ts'
import { contentFieldValues, storedFieldProblems } from './content-field-values.ts'
import { formatSynonymGroup, parseSynonymLines } from '../search/synonyms.ts'
import type { CategoryImport, ContentImport, ImportRecord, InquiryCategoryImport, SynonymsImport, TagImport } from './import-record.ts'
import type { ImportSummary, KindCounts } from './import-summary.ts'
import { emptySummary } from './import-summary.ts'
import { sameJson } from './same-json.ts'

/**
 * Applies checked import records, one at a time, inside one write transaction: decides ids,
 * versions and timestamps, resolves references, refuses conflicts, and counts what changed.
 *
 * - Upsert: by `id` when given, else by `code` (categories, inquiry categories), `slug`
 *   (contents) or `name` (tags). A given id that does not exist yet creates the record with it.
 * - A record replaces the whole stored record: an omitted optional field takes its default,
 *   except `published_at`, which keeps the stored value when omitted.
 * - References (`category_code`, `category_id`) must name a category defined earlier in the
 *   same import or already stored; tags named by contents are created as needed.
 * - `version` starts at 1 and grows only when something actually changed, so re-importing
 *   the same file changes nothing.
 * - A category's field keeps its id (given, else matched by name) and its type: stored values
 *   were checked against that type, so a new type needs a new field.
 * - A category redefined so that values it accepted may no longer pass (a new required field,
 *   a field made required, a select option removed) has every item checked again at the end
 *   (`finish`): stored ones and those of this import alike, so that the import is refused
 *   rather than leave items the API and a re-import of an export would disagree about.
 *
 * Categories, tags and inquiry categories are kept in memory (they are few); contents are
 * read through the transaction record by record, so the import streams.
 */
export class ImportPlanner {
  readonly summary: ImportSummary
  readonly #tx: ContentWriter
  readonly #tenantId: string
  readonly #now: number
  readonly #nowIso: string
  readonly #categories = new Index<CategoryRecord>()
  readonly #inquiryCategories = new Index<InquiryCategoryRecord>()
  readonly #tagsById = new Map<string, TagRecord>()
  readonly #tagsByName = new Map<string, TagRecord>()
  /** Categories whose new definition may refuse values accepted before, with the location of that record. */
  readonly #tightened = new Map<string, string>()
  /** Items read ahead for the coming records (`readAhead`), by id; an item leaves once written. */
  readonly #ahead = new Map<string, ContentRecord | null>()

  private constructor(tx: ContentWriter, tenantId: string, now: number, dryRun: boolean) {
    this.#tx = tx
    this.#tenantId = tenantId
    this.#now = now
    // Hint: every timestamp of one import is this instant; formatted once, not per record.
    this.#nowIso = isoAt(now)
    this.summary = emptySummary(dryRun)
  }

  /** A planner over `tx` for the tenant, with the tenant's categories and tags loaded. */
  static async start(tx: ContentWriter, tenantId: string, now: number, dryRun = false): Promise<ImportPlanner> {
    const planner = new ImportPlanner(tx, tenantId, now, dryRun)
    for (const c of await tx.listCategories(tenantId)) planner.#categories.set(c)
    for (const c of await tx.listInquiryCategories(tenantId)) planner.#inquiryCategories.set(c)
    for (const t of await tx.listTags(tenantId)) planner.#rememberTag(t)
    return planner
  }

  /**
   * Reads the items of these ids together, for the content records about to be applied, so
   * that each is not a read of its own (a round trip on PostgreSQL). Replaces the last read-ahead.
   */
  async readAhead(ids: readonly string[]): Promise<void> {
    this.#ahead.clear()
    const unique = [...new Set(ids)]
    if (unique.length === 0) return
    const records = await this.#tx.getContents(this.#tenantId, unique)
    unique.forEach((id, i) => this.#ahead.set(id, records[i] ?? null))
  }

  /** Applies one record; throws a `UsageError` naming `location` when it cannot be applied. */
  async apply(record: ImportRecord, location: string): Promise<void> {
    this.summary.records++
    switch (record.kind) {
      case 'category':
        return this.#category(record, location)
      case 'tag':
        return this.#tag(record, location)
      case 'content':
        return this.#content(record, location)
      case 'inquiry_category':
        return this.#inquiryCategory(record, location)
      case 'synonyms':
        return this.#synonyms(record, location)
    }
  }

  /** Replaces the tenant's synonyms with the record's groups (checked as `synonyms set` checks a file); one such record a file. */
  async #synonyms(input: SynonymsImport, location: string): Promise<void> {
    const counts = this.summary.synonyms
    if (counts.created + counts.updated + counts.unchanged > 0) throw invalidInput(location, [{ field: 'kind', message: 'a file holds at most one synonyms record' }])
    const lines = parseSynonymLines(input.groups, location).map(formatSynonymGroup)
    const stored = await this.#tx.getSynonyms(this.#tenantId)
    const changed = !sameJson(stored, lines)
    if (changed) await this.#tx.replaceSynonyms(this.#tenantId, lines)
    if (!changed) counts.unchanged++
    else if (stored.length === 0) counts.created++
    else counts.updated++
  }

  async #category(input: CategoryImport, location: string): Promise<void> {
    const existing = this.#findByIdOrCode(this.#categories, input, location, 'category')
    const fields = resolveFields(input, existing, location, this.#now)
    const next: CategoryRecord = {
      tenant_id: this.#tenantId,
      id: existing?.id ?? input.id ?? newId('cat', this.#now),
      code: input.code,
      name: input.name,
      description: input.description,
      sort: input.sort,
      active: input.active,
      fields,
      created_at: existing?.created_at ?? this.#iso(),
      updated_at: existing?.updated_at ?? this.#iso(),
    }
    const changed = existing === null || !sameJson({ ...existing, updated_at: '' }, { ...next, updated_at: '' })
    if (changed) {
      if (existing !== null) next.updated_at = this.#iso()
      // Hint: items read ahead hold their categories' names no longer: read again.
      this.#ahead.clear()
      await this.#tx.putCategory(next)
      this.#categories.set(next, existing)
      if (existing !== null && tightens(existing.fields, next.fields)) this.#tightened.set(next.id, location)
    }
    count(this.summary.categories, existing, changed)
  }

  /**
   * Checks every item of each category redefined more strictly in this import against its
   * final definition; throws a `UsageError` at that category's record naming the first
   * offending items (at most `MAX_REPORTED_ITEMS`). Call once, after the last record.
   */
  async finish(): Promise<void> {
    for (const [categoryId, location] of this.#tightened) {
      const category = this.#categories.byId.get(categoryId)
      if (category === undefined) continue
      const problems: ErrorDetail[] = []
      let after: { value: string; id: string } | undefined
      let offending = 0
      for (;;) {
        const page = await this.#tx.listContents(this.#tenantId, {
          visibility: { kind: 'all' },
          categoryIds: [categoryId],
          sort: { key: 'id', direction: 'asc' },
          limit: RECHECK_PAGE,
          ...(after === undefined ? {} : { after }),
        })
        for (const item of page) {
          const found = storedFieldProblems(category.fields, item.fields)
          if (found.length === 0) continue
          offending++
          if (offending <= MAX_REPORTED_ITEMS) for (const problem of found) problems.push({ field: problem.field, message: `${problem.message} (content ${item.slug})` })
        }
        const last = page.at(-1)
        if (page.length < RECHECK_PAGE || last === undefined) break
        after = { value: last.id, id: last.id }
      }
      if (offending > MAX_REPORTED_ITEMS) problems.push({ field: 'fields', message: `and ${offending - MAX_REPORTED_ITEMS} more items of this category` })
      if (problems.length > 0) {
        throw invalidInput(`${location}: category ${category.code} no longer accepts items it holds; give them values in this import, or keep the field optional and its options`, problems)
      }
    }
  }

  async #inquiryCategory(input: InquiryCategoryImport, location: string): Promise<void> {
    const existing = this.#findByIdOrCode(this.#inquiryCategories, input, location, 'inquiry category')
    const next: InquiryCategoryRecord = {
      tenant_id: this.#tenantId,
      id: existing?.id ?? input.id ?? newId('icat', this.#now),
      code: input.code,
      name: input.name,
      description: input.description,
      sort: input.sort,
      active: input.active,
      message: input.message ?? DEFAULT_INQUIRY_MESSAGE,
      created_at: existing?.created_at ?? this.#iso(),
      updated_at: existing?.updated_at ?? this.#iso(),
    }
    const changed = existing === null || !sameJson({ ...existing, updated_at: '' }, { ...next, updated_at: '' })
    if (changed) {
      if (existing !== null) next.updated_at = this.#iso()
      await this.#tx.putInquiryCategory(next)
      this.#inquiryCategories.set(next, existing)
    }
    count(this.summary.inquiry_categories, existing, changed)
  }

  async #tag(input: TagImport, location: string): Promise<void> {
    const byName = this.#tagsByName.get(input.name) ?? null
    const existing = input.id === undefined ? byName : (this.#tagsById.get(input.id) ?? null)
    if (byName !== null && input.id !== undefined && byName.id !== input.id) {
      throw invalidInput(location, [{ field: 'name', message: `is already the name of tag ${byName.id}` }])
    }
    const next: TagRecord = { tenant_id: this.#tenantId, id: existing?.id ?? input.id ?? newId('tag', this.#now), name: input.name }
    const changed = existing === null || existing.name !== next.name
    if (changed) {
      // Hint: items read ahead hold their tags' names: a renamed tag makes them stale.
      if (existing !== null) this.#ahead.clear()
      await this.#tx.putTag(next)
      if (existing !== null) this.#tagsByName.delete(existing.name)
      this.#rememberTag(next)
    }
    count(this.summary.tags, existing, changed)
  }

  async #content(input: ContentImport, location: string): Promise<void> {
    const category = this.#contentCategory(input, location)
    const fields = contentFieldValues(category.fields, input.content, location)
    const tx = this.#tx
    const ahead = input.id === undefined ? undefined : this.#ahead.get(input.id)
    const existing =
      input.id === undefined ? await tx.getContentBySlug(this.#tenantId, input.slug) : ahead !== undefined ? ahead : await tx.getContent(this.#tenantId, input.id)
    if (input.id !== undefined && existing?.slug !== input.slug) {
      // Hint: a new slug, or a new item with a given id: the slug must not belong to another item.
      const owner = await tx.getContentBySlug(this.#tenantId, input.slug)
      if (owner !== null) throw invalidInput(location, [{ field: 'slug', message: `is already the slug of content ${owner.id}` }])
    }
    const tags = await this.#contentTags(input.tags)
    const next: ContentRecord = {
      tenant_id: this.#tenantId,
      id: existing?.id ?? input.id ?? newId('cnt', this.#now),
      slug: input.slug,
      title: input.title,
      category_id: category.id,
      status: input.status,
      published_at: input.published_at ?? existing?.published_at ?? (input.status === 'published' ? this.#iso() : null),
      author_name: input.author_name,
      tags,
      summary: input.summary,
      body: input.body,
      fields,
      meta: { og_title: '', og_description: '', ...input.meta },
      version: existing?.version ?? 1,
      created_at: existing?.created_at ?? this.#iso(),
      updated_at: existing?.updated_at ?? this.#iso(),
    }
    const changed = existing === null || !sameContent(existing, next)
    if (changed) {
      if (existing !== null) {
        next.version = existing.version + 1
        next.updated_at = this.#iso()
      }
      this.#ahead.delete(next.id)
      await tx.putContent(next)
    }
    count(this.summary.contents, existing, changed)
  }

  #contentCategory(input: ContentImport, location: string): CategoryRecord {
    const byId = input.category_id === undefined ? undefined : this.#categories.byId.get(input.category_id)
    const byCode = input.category_code === undefined ? undefined : this.#categories.byCode.get(input.category_code)
    const problems: ErrorDetail[] = []
    const later = 'define the category earlier in the import, or create it first'
    if (input.category_id === undefined && input.category_code === undefined) {
      problems.push({ field: 'category_code', message: 'category_code or category_id is required' })
    }
    if (input.category_id !== undefined && byId === undefined) problems.push({ field: 'category_id', message: `no category with this id (${later})` })
    if (input.category_code !== undefined && byCode === undefined) problems.push({ field: 'category_code', message: `no category with this code (${later})` })
    if (byId !== undefined && byCode !== undefined && byId.id !== byCode.id) {
      problems.push({ field: 'category_id', message: 'names another category than category_code' })
    }
    const category = byId ?? byCode
    if (problems.length > 0 || category === undefined) throw invalidInput(location, problems)
    return category
  }

  async #contentTags(names: string[]): Promise<Tag[]> {
    const tags: Tag[] = []
    for (const name of new Set(names)) {
      let tag = this.#tagsByName.get(name)
      if (tag === undefined) {
        tag = { tenant_id: this.#tenantId, id: newId('tag', this.#now), name }
        await this.#tx.putTag(tag)
        this.#rememberTag(tag)
        this.summary.tags.created++
      }
      tags.push({ id: tag.id, name: tag.name })
    }
    return tags
  }

  #findByIdOrCode<T extends { id: string; code: string }>(
    index: Index<T>,
    input: { id?: string | undefined; code: string },
    location: string,
    what: string,
  ): T | null {
    const byCode = index.byCode.get(input.code) ?? null
    if (input.id === undefined) return byCode
    if (byCode !== null && byCode.id !== input.id) {
      throw invalidInput(location, [{ field: 'code', message: `is already the code of ${what} ${byCode.id}` }])
    }
    return index.byId.get(input.id) ?? null
  }

  #rememberTag(tag: TagRecord): void {
    this.#tagsById.set(tag.id, tag)
    this.#tagsByName.set(tag.name, tag)
  }

  #iso(): string {
    return this.#nowIso
  }
}

/** Items of a redefined category are checked this many at a time. */
const RECHECK_PAGE = 500
/** A refused redefinition names at most this many of its offending items. */
const MAX_REPORTED_ITEMS = 10

/** Whether `next` may refuse a value `previous` accepted (fields are matched by id; types never change). */
function tightens(previous: readonly FieldDefinition[], next: readonly FieldDefinition[]): boolean {
  return next.some((field) => {
    const before = previous.find((f) => f.id === field.id)
    if (field.required && before?.required !== true) return true
    return before?.options !== undefined && field.options !== undefined && before.options.some((option) => !field.options?.includes(option))
  })
}

/** Records by id and by code. */
class Index<T extends { id: string; code: string }> {
  readonly byId = new Map<string, T>()
  readonly byCode = new Map<string, T>()

  set(record: T, previous: T | null = null): void {
    if (previous !== null) this.byCode.delete(previous.code)
    this.byId.set(record.id, record)
    this.byCode.set(record.code, record)
  }
}

function count(counts: KindCounts, existing: unknown, changed: boolean): void {
  if (existing === null) counts.created++
  else if (changed) counts.updated++
  else counts.unchanged++
}

/** Field definitions with ids: given, else kept from the stored field of the same name, else new. */
function resolveFields(input: CategoryImport, existing: CategoryRecord | null, location: string, now: number): FieldDefinition[] {
  const problems: ErrorDetail[] = []
  const names = new Set<string>()
  const ids = new Set<string>()
  const fields = input.fields.map((field, i): FieldDefinition => {
    const at = `fields.${i}`
    if (names.has(field.name)) problems.push({ field: `${at}.name`, message: 'is already the name of another field of this category' })
    if (field.type === 'select' && field.options === undefined) problems.push({ field: `${at}.options`, message: 'is required for a select field' })
    if (field.type !== 'select' && field.options !== undefined) problems.push({ field: `${at}.options`, message: 'is allowed for select fields only' })
    const id = field.id ?? existing?.fields.find((f) => f.name === field.name)?.id ?? newId('fld', now)
    if (ids.has(id)) problems.push({ field: `${at}.id`, message: 'is already the id of another field of this category' })
    // Hint: stored values were checked against the old type; a field with a new type needs a new id.
    const stored = existing?.fields.find((f) => f.id === id)
    if (stored !== undefined && stored.type !== field.type) {
      problems.push({ field: `${at}.type`, message: `cannot change from ${stored.type} to ${field.type}: give the field a new id (and name) instead` })
    }
    names.add(field.name)
    ids.add(id)
    return { id, name: field.name, type: field.type, ...(field.options === undefined ? {} : { options: field.options }), required: field.required }
  })
  if (problems.length > 0) throw invalidInput(location, problems)
  return fields
}

function sameContent(a: ContentRecord, b: ContentRecord): boolean {
  const strip = (r: ContentRecord) => ({ ...r, tenant_id: '', version: 0, created_at: '', updated_at: '' })
  return sameJson(strip(a), strip(b))
}

/**
 * Schema version 2: the tenant `revision` counter and the `change_log`, both kept by triggers
 * so that every writer (any process, any tool) keeps caches and the search index fresh.
 *
 * Every insert, update or delete of a content item, its tag links or field values, a category
 * or a tag bumps the tenant's revision and appends one `change_log` row; inquiry categories
 * bump the revision only (they are listed from cache, never searched).
 */
export const V2_CHANGE_LOG = `
ALTER TABLE tenants ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

CREATE TABLE change_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id TEXT NOT NULL,
  entity TEXT NOT NULL /* 'content'|'category'|'tag' */,
  entity_id TEXT NOT NULL
);

${triggers('contents', 'content', 'id')}
${triggers('content_tags', 'content', 'content_id')}
${triggers('content_fields', 'content', 'content_id')}
${triggers('categories', 'category', 'id')}
${triggers('tags', 'tag', 'id')}
${triggers('inquiry_categories', null, 'id')}
`

// Hint: generated once into the migration text; changing this function changes a shipped
// migration, so later schema changes belong in a new version instead.
function triggers(table: string, entity: string | null, idColumn: string): string {
  const events = [
    ['insert', 'NEW'],
    ['update', 'NEW'],
    ['delete', 'OLD'],
  ] as const
  return events
    .map(([event, row]) => {
      const log = entity === null
        ? ''
        : `\n  INSERT INTO change_log (tenant_id, entity, entity_id) VALUES (${row}.tenant_id, '${entity}', ${row}.${idColumn});`
      return `CREATE TRIGGER ${table}_after_${event} AFTER ${event.toUpperCase()} ON ${table} BEGIN
  UPDATE tenants SET revision = revision + 1 WHERE id = ${row}.tenant_id;${log}
END;`
    })
    .join('\n')
}

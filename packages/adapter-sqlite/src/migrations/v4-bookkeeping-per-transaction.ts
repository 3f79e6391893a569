/**
 * Schema version 4: the per-row triggers of version 2 are dropped. The tenant `revision` and
 * the `change_log` are now kept by the store itself, once per transaction (see `ChangeSet`):
 * the revision grows by one per changed tenant and `change_log` gets one row per distinct
 * content item, category or tag changed, instead of one revision bump and one log row for
 * every row written (an item with tags and field values wrote ~7 of each): the triggers were
 * most of an import's write time.
 *
 * Consequence: a write made with raw SQL outside frontdesk (the `sqlite3` shell, a script)
 * no longer bumps the revision nor reaches the search index; every frontdesk process writes
 * through the store, so it does. SQLite has no statement-level triggers, and a per-row
 * trigger costs about as much even when its `WHEN` clause skips it.
 */
export const V4_BOOKKEEPING_PER_TRANSACTION = ['contents', 'content_tags', 'content_fields', 'categories', 'tags', 'inquiry_categories']
  .flatMap((table) => ['insert', 'update', 'delete'].map((event) => `DROP TRIGGER IF EXISTS ${table}_after_${event};`))
  .join('\n')

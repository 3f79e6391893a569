/**
 * Schema version 5: `content_tags` is keyed by `(tenant_id, content_id, tag_id)` — the
 * uniqueness version 1 enforced with a second index — instead of by position. Each tag link
 * is then written to two B-trees (the table and `content_tags_by_tag`) instead of three, which
 * an import of many tagged items feels; an item's few links are sorted by `position` when
 * read (they were anyway: every read orders by it), and the tag filter's
 * `(tenant_id, content_id, tag_id)` probe reads the table's own key.
 */
export const V5_CONTENT_TAGS_KEYED_BY_TAG = `
CREATE TABLE content_tags_v5 (
  tenant_id TEXT NOT NULL,
  content_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  tag_id TEXT NOT NULL,
  PRIMARY KEY (tenant_id, content_id, tag_id),
  FOREIGN KEY (tenant_id, content_id) REFERENCES contents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, tag_id) REFERENCES tags (tenant_id, id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
INSERT INTO content_tags_v5 (tenant_id, content_id, position, tag_id) SELECT tenant_id, content_id, position, tag_id FROM content_tags;
DROP TABLE content_tags;
ALTER TABLE content_tags_v5 RENAME TO content_tags;
CREATE INDEX content_tags_by_tag ON content_tags (tenant_id, tag_id, content_id);
`

/**
 * Schema version 6: an item's links are kept on its own row as well as in the link tables.
 *
 * - `contents.tag_ids`: the ids of the item's tags in order (a JSON array), and
 *   `contents.field_values`: its custom-field values (a JSON object, keys in `field_id` order),
 *   so that reading an item, or a page of items, reads their rows only: no correlated
 *   subqueries or extra statements over `content_tags` and `content_fields` (tag names are
 *   looked up by id, so renaming a tag rewrites no item). The link tables stay the source of
 *   the tag and field filters and of custom-field sorts; the store writes both in one statement
 *   sequence of one transaction.
 * - `content_tags.category_id`: the item's category, and `content_tags_by_tag` ordered by
 *   `(tenant_id, tag_id, category_id, content_id)`: a list filtered by category and tag reads
 *   the tag's links *in that category* (a twentieth of them with 20 categories) instead of
 *   checking every link of the tag.
 *
 * Numbers are written with 17 significant digits by `json_quote`, so they read back exactly.
 */
export const V6_ITEM_LINKS_ON_ROWS = `
ALTER TABLE contents ADD COLUMN tag_ids TEXT NOT NULL DEFAULT '[]';
ALTER TABLE contents ADD COLUMN field_values TEXT NOT NULL DEFAULT '{}';
UPDATE contents SET tag_ids = (
  SELECT json_group_array(ct.tag_id ORDER BY ct.position) FROM content_tags ct
   WHERE ct.tenant_id = contents.tenant_id AND ct.content_id = contents.id
) WHERE EXISTS (SELECT 1 FROM content_tags ct WHERE ct.tenant_id = contents.tenant_id AND ct.content_id = contents.id);
UPDATE contents SET field_values = (
  SELECT '{' || group_concat(
      json_quote(f.field_id) || ':' || CASE
        WHEN f.value_text IS NOT NULL THEN json_quote(f.value_text)
        WHEN f.value_number IS NOT NULL THEN json_quote(f.value_number)
        WHEN f.value_boolean <> 0 THEN 'true'
        ELSE 'false' END,
      ',' ORDER BY f.field_id) || '}'
    FROM content_fields f WHERE f.tenant_id = contents.tenant_id AND f.content_id = contents.id
) WHERE EXISTS (SELECT 1 FROM content_fields f WHERE f.tenant_id = contents.tenant_id AND f.content_id = contents.id);
ALTER TABLE content_tags ADD COLUMN category_id TEXT NOT NULL DEFAULT '';
UPDATE content_tags SET category_id = (
  SELECT c.category_id FROM contents c WHERE c.tenant_id = content_tags.tenant_id AND c.id = content_tags.content_id
);
DROP INDEX content_tags_by_tag;
CREATE INDEX content_tags_by_tag ON content_tags (tenant_id, tag_id, category_id, content_id);
`

/**
 * Schema version 7: the order indexes of the lists the API serves most — newest first
 * (`contents_by_published`), per category (`contents_by_category`) and by title
 * (`contents_by_title`) — hold, after their keys, every column a list item is read from (the
 * `summary` view of `ContentQuery`: everything but `body`, `meta` and `field_values`), so a list
 * page is read from a few consecutive index pages instead of one random 1–2 KB row per item.
 *
 * The keys stay the same, so the same plans and keyset seeks; only what each entry carries
 * grows, which costs file size and some import speed. The `updated_at` and `id` orders keep
 * narrow indexes (lists rarely sorted so).
 */
export const V7_LIST_COVERING_INDEXES = `
DROP INDEX contents_by_published;
CREATE INDEX contents_by_published ON contents (
  tenant_id, status, published_at, id,
  category_id, slug, title, author_name, summary, tag_ids, version, created_at, updated_at);
DROP INDEX contents_by_category;
CREATE INDEX contents_by_category ON contents (
  tenant_id, category_id, status, published_at, id,
  slug, title, author_name, summary, tag_ids, version, created_at, updated_at);
DROP INDEX contents_by_title;
CREATE INDEX contents_by_title ON contents (
  tenant_id, status, title, id,
  published_at, category_id, slug, author_name, summary, tag_ids, version, created_at, updated_at);
`

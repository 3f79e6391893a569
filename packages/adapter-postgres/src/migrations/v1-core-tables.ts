/** Text compared byte by byte (as SQLite's BINARY), whatever collation the database was created with. */
const T = 'text COLLATE "C"'

/**
 * Schema version 1: every record family of the storage port, the change feed and the store's
 * own state row. Tenant-scoped tables key on `(tenant_id, id)`; API keys and preview tokens
 * have globally unique ids and hashes (never the keys themselves). Timestamps are the ISO
 * strings core decides, stored as given. An item's tag ids (in order) and custom-field values
 * live on its row: `tag_ids` (GIN-indexed for tag filters) and `fields` (jsonb, GIN-indexed for
 * field filters); names come from `tags`, so a renamed tag shows in every item at once.
 */
export const V1_CORE_TABLES = `
CREATE TABLE frontdesk_state (
  id integer PRIMARY KEY CHECK (id = 1),
  schema_version integer NOT NULL,
  epoch text NOT NULL,
  feed_pos bigint NOT NULL DEFAULT 0,
  generation bigint NOT NULL DEFAULT 0,
  pruned_through bigint NOT NULL DEFAULT 0
);
INSERT INTO frontdesk_state (id, schema_version, epoch) VALUES (1, 0, substr(md5(random()::text || clock_timestamp()::text), 1, 12));

CREATE TABLE tenants (
  id ${T} PRIMARY KEY,
  code ${T} NOT NULL UNIQUE,
  name ${T} NOT NULL,
  created_at ${T} NOT NULL,
  revision bigint NOT NULL DEFAULT 0
);

CREATE TABLE api_keys (
  id ${T} PRIMARY KEY,
  tenant_id ${T} NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name ${T} NOT NULL,
  kind ${T} NOT NULL,
  permissions ${T} NOT NULL,
  hash ${T} NOT NULL UNIQUE,
  prefix ${T} NOT NULL,
  created_at ${T} NOT NULL,
  last_used_at ${T},
  disabled_at ${T},
  rate_limit double precision
);
CREATE INDEX api_keys_by_tenant ON api_keys (tenant_id, created_at, id);

CREATE TABLE preview_tokens (
  id ${T} PRIMARY KEY,
  tenant_id ${T} NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  target_kind ${T} NOT NULL,
  target_id ${T} NOT NULL,
  hash ${T} NOT NULL UNIQUE,
  created_at ${T} NOT NULL,
  expires_at ${T} NOT NULL,
  revoked_at ${T}
);

CREATE TABLE categories (
  tenant_id ${T} NOT NULL,
  id ${T} NOT NULL,
  code ${T} NOT NULL,
  name ${T} NOT NULL,
  description ${T} NOT NULL,
  sort double precision NOT NULL,
  active boolean NOT NULL,
  fields ${T} NOT NULL,
  created_at ${T} NOT NULL,
  updated_at ${T} NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, code)
);

CREATE TABLE tags (
  tenant_id ${T} NOT NULL,
  id ${T} NOT NULL,
  name ${T} NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name)
);

CREATE TABLE contents (
  tenant_id ${T} NOT NULL,
  id ${T} NOT NULL,
  slug ${T} NOT NULL,
  title ${T} NOT NULL,
  category_id ${T} NOT NULL,
  status ${T} NOT NULL CHECK (status IN ('draft', 'published')),
  published_at ${T},
  author_name ${T} NOT NULL,
  summary ${T} NOT NULL,
  body ${T} NOT NULL,
  meta ${T} NOT NULL,
  version integer NOT NULL,
  created_at ${T} NOT NULL,
  updated_at ${T} NOT NULL,
  tag_ids text[] COLLATE "C" NOT NULL,
  fields jsonb NOT NULL,
  PRIMARY KEY (tenant_id, id),
  -- Hint: checked at the end of each statement, so a batch of items that swap slugs passes.
  CONSTRAINT contents_slug UNIQUE (tenant_id, slug) DEFERRABLE INITIALLY IMMEDIATE
);
-- Keyset pagination of lists: equality on (tenant_id, status), then the sort and id.
CREATE INDEX contents_by_published ON contents (tenant_id, status, published_at, id);
CREATE INDEX contents_by_title ON contents (tenant_id, status, title, id);
CREATE INDEX contents_by_updated ON contents (tenant_id, status, updated_at, id);
CREATE INDEX contents_by_id ON contents (tenant_id, status, id);
CREATE INDEX contents_by_category ON contents (tenant_id, category_id, status, published_at, id);
CREATE INDEX contents_by_tag ON contents USING gin (tag_ids);
CREATE INDEX contents_by_field ON contents USING gin (fields jsonb_path_ops);

CREATE TABLE inquiry_categories (
  tenant_id ${T} NOT NULL,
  id ${T} NOT NULL,
  code ${T} NOT NULL,
  name ${T} NOT NULL,
  description ${T} NOT NULL,
  sort double precision NOT NULL,
  active boolean NOT NULL,
  message ${T} NOT NULL,
  created_at ${T} NOT NULL,
  updated_at ${T} NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, code)
);

CREATE TABLE inquiries (
  tenant_id ${T} NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id ${T} NOT NULL,
  category_code ${T} NOT NULL,
  title ${T} NOT NULL,
  content ${T} NOT NULL,
  priority integer NOT NULL,
  inquirer_name ${T} NOT NULL,
  inquirer_email ${T} NOT NULL,
  inquirer_phone ${T},
  inquirer_company ${T},
  inquirer_department ${T},
  status ${T} NOT NULL,
  api_key_id ${T},
  created_at ${T} NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX inquiries_by_status ON inquiries (tenant_id, status, id);

CREATE TABLE idempotency_keys (
  tenant_id ${T} NOT NULL,
  key ${T} NOT NULL,
  request_hash ${T} NOT NULL,
  state ${T} NOT NULL CHECK (state IN ('in_flight', 'completed')),
  claimed_at ${T} NOT NULL,
  response_status integer,
  response_body ${T},
  PRIMARY KEY (tenant_id, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (tenant_id, claimed_at);

-- The change feed: one row per changed entity, numbered in commit order (see change-feed.ts).
CREATE TABLE change_feed (
  pos bigint PRIMARY KEY,
  tenant_id ${T} NOT NULL,
  entity ${T} NOT NULL,
  entity_id ${T} NOT NULL
);
CREATE INDEX change_feed_by_tenant ON change_feed (tenant_id, pos);
`

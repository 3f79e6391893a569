/**
 * Schema version 1: every record family of the storage port. Tenant-scoped tables key on
 * `(tenant_id, id)`; API keys and preview tokens have globally unique ids and hashes.
 */
export const V1_CORE_TABLES = `
CREATE TABLE tenants (
  id TEXT NOT NULL PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id TEXT NOT NULL PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  permissions TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  disabled_at TEXT,
  rate_limit REAL
) STRICT;
CREATE INDEX api_keys_by_tenant ON api_keys (tenant_id, created_at, id);

CREATE TABLE preview_tokens (
  id TEXT NOT NULL PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  target_kind TEXT NOT NULL,
  target_id TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;

CREATE TABLE categories (
  tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  sort REAL NOT NULL,
  active INTEGER NOT NULL,
  fields TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, code)
) STRICT, WITHOUT ROWID;

CREATE TABLE tags (
  tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name)
) STRICT, WITHOUT ROWID;

CREATE TABLE contents (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  slug TEXT NOT NULL,
  title TEXT NOT NULL,
  category_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'published')),
  published_at TEXT,
  author_name TEXT NOT NULL,
  summary TEXT NOT NULL,
  body TEXT NOT NULL,
  meta TEXT NOT NULL,
  version INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, slug),
  FOREIGN KEY (tenant_id, category_id) REFERENCES categories (tenant_id, id)
) STRICT;
-- Keyset pagination of public lists: equality on (tenant_id, status), then the sort and id.
CREATE INDEX contents_by_published ON contents (tenant_id, status, published_at, id);
CREATE INDEX contents_by_title ON contents (tenant_id, status, title, id);
CREATE INDEX contents_by_updated ON contents (tenant_id, status, updated_at, id);
CREATE INDEX contents_by_category ON contents (tenant_id, category_id, status, published_at, id);

CREATE TABLE content_tags (
  tenant_id TEXT NOT NULL,
  content_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  tag_id TEXT NOT NULL,
  PRIMARY KEY (tenant_id, content_id, position),
  UNIQUE (tenant_id, content_id, tag_id),
  FOREIGN KEY (tenant_id, content_id) REFERENCES contents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, tag_id) REFERENCES tags (tenant_id, id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
CREATE INDEX content_tags_by_tag ON content_tags (tenant_id, tag_id, content_id);

-- One row per custom-field value, in the column of its type, so filters and sorts are indexable.
CREATE TABLE content_fields (
  tenant_id TEXT NOT NULL,
  content_id TEXT NOT NULL,
  field_id TEXT NOT NULL,
  value_text TEXT,
  value_number REAL,
  value_boolean INTEGER,
  CHECK ((value_text IS NOT NULL) + (value_number IS NOT NULL) + (value_boolean IS NOT NULL) = 1),
  PRIMARY KEY (tenant_id, content_id, field_id),
  FOREIGN KEY (tenant_id, content_id) REFERENCES contents (tenant_id, id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
CREATE INDEX content_fields_by_text ON content_fields (tenant_id, field_id, value_text, content_id) WHERE value_text IS NOT NULL;
CREATE INDEX content_fields_by_number ON content_fields (tenant_id, field_id, value_number, content_id) WHERE value_number IS NOT NULL;
CREATE INDEX content_fields_by_boolean ON content_fields (tenant_id, field_id, value_boolean, content_id) WHERE value_boolean IS NOT NULL;

CREATE TABLE inquiry_categories (
  tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  sort REAL NOT NULL,
  active INTEGER NOT NULL,
  message TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, code)
) STRICT, WITHOUT ROWID;

CREATE TABLE inquiries (
  tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  category_code TEXT NOT NULL,
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  priority INTEGER NOT NULL,
  inquirer_name TEXT NOT NULL,
  inquirer_email TEXT NOT NULL,
  inquirer_phone TEXT,
  inquirer_company TEXT,
  inquirer_department TEXT,
  status TEXT NOT NULL,
  api_key_id TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
) STRICT;
CREATE INDEX inquiries_by_status ON inquiries (tenant_id, status, id);

CREATE TABLE idempotency_keys (
  tenant_id TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'completed')),
  claimed_at TEXT NOT NULL,
  response_status INTEGER,
  response_body TEXT,
  PRIMARY KEY (tenant_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (tenant_id, claimed_at);
`

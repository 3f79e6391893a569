/**
 * Schema version 9: the event outbox (`events`, written by the transaction that causes each
 * event; `seq` is taken inside the writing transaction, and SQLite has one writer at a time, so
 * `seq` order is commit order) and each tenant's `scheduled_through` (up to when scheduled
 * publications have been announced). Tenants that exist already start at the migration's time,
 * so that publications which passed before events existed are not announced years late.
 * Events have one secondary index, by tenant and `seq` (what delivery reads); an event is found
 * by id (a replay) within its tenant's rows: an import writes one event per published item, and
 * each index is a B-tree written per row.
 */
export const V10_EVENT_OUTBOX_TABLES = `
CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX events_by_tenant_seq ON events (tenant_id, seq);

CREATE TABLE event_schedule (
  tenant_id TEXT PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  scheduled_through TEXT NOT NULL
) STRICT, WITHOUT ROWID;
INSERT INTO event_schedule (tenant_id, scheduled_through) SELECT id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM tenants;
`

/**
 * Also in version 9: webhook endpoints with their delivery state (a cursor over `events`, the
 * attempts at the event after it, the lease of the process delivering), and the log of
 * attempts. Secrets are stored sealed by core.
 */
export const V10_WEBHOOKS = `
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until TEXT,
  created_at TEXT NOT NULL,
  disabled_at TEXT,
  disabled_reason TEXT,
  cursor INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  failing_since TEXT,
  lease_owner TEXT,
  lease_until TEXT
) STRICT;
CREATE INDEX webhook_endpoints_by_tenant ON webhook_endpoints (tenant_id, id);

CREATE TABLE webhook_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  at TEXT NOT NULL,
  status INTEGER,
  ok INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  next_attempt_at TEXT
) STRICT;
CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, seq);
CREATE INDEX webhook_attempts_by_tenant ON webhook_attempts (tenant_id, seq);
`

/** Schema version 9 as one migration. */
export const V10_EVENT_OUTBOX = V10_EVENT_OUTBOX_TABLES + V10_WEBHOOKS

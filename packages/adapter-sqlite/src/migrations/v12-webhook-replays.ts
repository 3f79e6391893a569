/**
 * Schema version 12: replays asked by the operator (`webhook replay`), one row per (endpoint,
 * event), each with its own retry state and lease beside the endpoint's ordered stream, so that
 * a replay is retried on the delivery schedule and survives a crash. A row goes when its event
 * is delivered or given up; its event is kept from pruning while it waits.
 */
export const V12_WEBHOOK_REPLAYS = `
CREATE TABLE webhook_replays (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_seq INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  lease_owner TEXT,
  lease_until TEXT
) STRICT;
CREATE INDEX webhook_replays_by_endpoint ON webhook_replays (endpoint_id);
CREATE INDEX webhook_replays_by_tenant_event ON webhook_replays (tenant_id, event_seq);
`

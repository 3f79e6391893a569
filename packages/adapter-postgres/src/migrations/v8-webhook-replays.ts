/**
 * Schema version 8: replays asked by the operator (`webhook replay`), one row per (endpoint,
 * event), each with its own retry state and lease beside the endpoint's ordered stream, so that
 * a replay is retried on the delivery schedule and survives a crash. A row goes when its event
 * is delivered or given up; its event is kept from pruning while it waits.
 */
export const V8_WEBHOOK_REPLAYS = `
CREATE TABLE webhook_replays (
  seq bigserial PRIMARY KEY,
  tenant_id text COLLATE "C" NOT NULL,
  endpoint_id text COLLATE "C" NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_seq bigint NOT NULL,
  event_id text COLLATE "C" NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at text COLLATE "C",
  lease_owner text,
  lease_until text COLLATE "C"
);
CREATE INDEX webhook_replays_by_endpoint ON webhook_replays (endpoint_id);
CREATE INDEX webhook_replays_by_tenant_event ON webhook_replays (tenant_id, event_seq);
`

/**
 * Schema version 5: the event outbox. `events.seq` is handed out from `event_state.last_seq`,
 * which every writer of events moves with its last statement before COMMIT (see
 * `records/events.ts`): the row lock orders the numbers by commit. `event_schedule` keeps each
 * tenant's `scheduled_through` (up to when scheduled publications have been announced);
 * tenants that exist already start at the migration's time.
 */
export const V6_EVENT_OUTBOX_TABLES = `
CREATE TABLE events (
  seq bigint PRIMARY KEY,
  tenant_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  type text COLLATE "C" NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  data text NOT NULL
);
CREATE INDEX events_by_tenant_seq ON events (tenant_id, seq);

CREATE TABLE event_state (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  last_seq bigint NOT NULL
);
INSERT INTO event_state (one, last_seq) VALUES (true, 0);

CREATE TABLE event_schedule (
  tenant_id text COLLATE "C" PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  scheduled_through text COLLATE "C" NOT NULL
);
INSERT INTO event_schedule (tenant_id, scheduled_through)
  SELECT id, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM tenants;
`

/**
 * Also in version 5: webhook endpoints with their delivery state (a cursor over `events`, the
 * attempts at the event after it, the lease of the process delivering) and the log of attempts.
 * Secrets are stored sealed by core.
 */
export const V6_WEBHOOKS = `
CREATE TABLE webhook_endpoints (
  id text COLLATE "C" PRIMARY KEY,
  tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  url text NOT NULL,
  events text NOT NULL,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_until text COLLATE "C",
  created_at text COLLATE "C" NOT NULL,
  disabled_at text COLLATE "C",
  disabled_reason text,
  cursor bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at text COLLATE "C",
  failing_since text COLLATE "C",
  lease_owner text,
  lease_until text COLLATE "C"
);
CREATE INDEX webhook_endpoints_by_tenant ON webhook_endpoints (tenant_id, id);

CREATE TABLE webhook_attempts (
  seq bigserial PRIMARY KEY,
  tenant_id text COLLATE "C" NOT NULL,
  endpoint_id text COLLATE "C" NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id text COLLATE "C" NOT NULL,
  event_type text NOT NULL,
  attempt integer NOT NULL,
  at text COLLATE "C" NOT NULL,
  status integer,
  ok boolean NOT NULL,
  duration_ms integer NOT NULL,
  error text,
  next_attempt_at text COLLATE "C"
);
CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, seq);
CREATE INDEX webhook_attempts_by_tenant ON webhook_attempts (tenant_id, seq);
`

/** Schema version 5 as one migration. */
export const V6_EVENT_OUTBOX = V6_EVENT_OUTBOX_TABLES + V6_WEBHOOKS

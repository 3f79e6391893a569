/**
 * Schema version 4: the token buckets of the rate limits (`Store.rateLimits`), shared by every
 * server process on the database. UNLOGGED: no WAL is written for a step (the table is emptied
 * after a crash of PostgreSQL and is not on replicas, which only refills buckets early).
 * `full_at` (ms) is when a bucket will be full again, and so as good as absent: rows past it
 * are pruned.
 */
export const V4_RATE_LIMIT_BUCKETS = `
CREATE UNLOGGED TABLE rate_limit_buckets (
  name text COLLATE "C" PRIMARY KEY,
  tokens double precision NOT NULL,
  at double precision NOT NULL,
  taken integer NOT NULL,
  full_at double precision NOT NULL
);
`

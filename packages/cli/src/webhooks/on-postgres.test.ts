// The webhook delivery tests once more, on PostgreSQL: imported again with `?store=postgres`,
// which the test reads (see `storeOf`), so that each test runs on a database of the test server.
await import(new URL('./webhook-delivery.test.ts?store=postgres', import.meta.url).href)
await import(new URL('./outbox-crash.test.ts?store=postgres', import.meta.url).href)

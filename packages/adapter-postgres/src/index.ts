export { openPostgresStore, POSTGRES_DEFAULTS, PostgresStore, WRITER_LOCK } from './postgres-store.ts'
export type { PostgresStoreOptions } from './postgres-store.ts'
export { MIGRATION_LOCK, MIGRATIONS, SCHEMA_VERSION, migrate, schemaVersion } from './migrations/migrate.ts'
export { redactUrl } from './connection/storage-error.ts'

export { DEFAULT_BUSY_TIMEOUT_MS, DEFAULT_CHANGE_LOG_RETENTION, openSqliteStore, SqliteStore } from './sqlite-store.ts'
export type { SqliteStoreOptions } from './sqlite-store.ts'
export { MIGRATIONS, SCHEMA_VERSION, migrate, schemaVersion } from './migrations/migrate.ts'

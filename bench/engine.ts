/*
 * Everything the benchmark takes from the search engine, in one place: the engine's public
 * entry points (by package name) and the one internal it needs, the field weights, which the
 * SQLite FTS5 reference ranks with (`bm25()`), so that both rank by the same weights. Only
 * this file reaches into the engine's source; when the engine moves, this is the file to change.
 */
export { createSqliteSearch, indexWhileImporting } from '@frontdesk/adapter-sqlite'
export { FIELD_BOOST } from '../packages/adapter-sqlite/src/search/inverted-index.ts'

/*
 * Everything the benchmark takes from the search engine, in one place: its public entry points
 * and the field weights the SQLite FTS5 reference ranks with (`bm25()`), which core defines
 * for every engine, so that both rank by the same weights.
 */
export { createSearchEngine, directorySnapshots, indexWhileImporting } from '@frontdesk/search'
export { FIELD_BOOST } from '@frontdesk/core'

import { testStore } from '@frontdesk/core/testing'
import { openTempStore } from '../test/util/temp-store.ts'
import { openSqliteStore } from './sqlite-store.ts'

// The storage-port conformance suite, against a real database file per test; a second store
// on the same file is another process's connection.
testStore('sqlite', async () => openTempStore(), { otherProcess: (store) => openSqliteStore({ path: store.path }) })

import { testStore } from '@frontdesk/core/testing'
import { openTempStore } from '../test/util/temp-store.ts'

// The storage-port conformance suite, against a real database file per test.
testStore('sqlite', async () => openTempStore())

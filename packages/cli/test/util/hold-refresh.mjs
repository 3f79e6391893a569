// Preloaded (`NODE_OPTIONS=--import`) into the processes a test's command starts: a
// `frontdesk search-snapshot` among them waits until the file named by
// FRONTDESK_TEST_REFRESH_GATE exists (at most 30 s), so that the test sees what is true before
// the refresh runs.
import { existsSync } from 'node:fs'

const gate = process.env.FRONTDESK_TEST_REFRESH_GATE
if (gate !== undefined && process.argv.includes('search-snapshot')) {
  for (const until = Date.now() + 30_000; !existsSync(gate) && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10))
}

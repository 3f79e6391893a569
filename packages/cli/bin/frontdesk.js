#!/usr/bin/env node
// The CLI is bundled by `npm install` (scripts/build.mjs) so that start-up does not pay for
// transpiling TypeScript on every call; scripts loop over this binary.
import { main } from '../dist/cli.js'

// A reader that stops early (`frontdesk export … | head`) closes the pipe: stop quietly, as
// Unix tools do, instead of dying with an unhandled EPIPE and its stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
}

main(process.argv).then((code) => {
  process.exitCode = code
})

#!/usr/bin/env node
// The CLI runs from one bundle (built by scripts/build.mjs on `npm install` and `npm pack`),
// which starts faster than the ~250 modules of the packages' dist/: scripts loop over it.
import { fileURLToPath } from 'node:url'
import { main, processEnv } from '../dist/bundle/cli.js'

// A reader that stops early (`frontdesk export … | head`) closes the pipe: stop quietly, as
// Unix tools do, instead of dying with an unhandled EPIPE and its stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
}

// Hint: its own path, so that work a command hands off (a search snapshot's refresh) runs this very CLI.
main(process.argv, processEnv(fileURLToPath(import.meta.url))).then((code) => {
  process.exitCode = code
})

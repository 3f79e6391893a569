#!/usr/bin/env node
// The CLI is bundled by `npm install` (scripts/build.mjs) so that start-up does not pay for
// transpiling TypeScript on every call; scripts loop over this binary.
import { main } from '../dist/cli.js'

main(process.argv).then((code) => {
  process.exitCode = code
})

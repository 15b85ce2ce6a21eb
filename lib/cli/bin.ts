#!/usr/bin/env node
// The package's `fastify-api-versioning` command: `snapshot` and `check` (see main.ts). The app is closed by then,
// but its module may still hold the process (a timer or a pool of its own, outside Fastify's onClose): the command
// ends once what it wrote is flushed, never cut short.
import { main } from './main.js'

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }, process).then(code => {
  process.exitCode = code
  process.stdout.write('', () => process.stderr.write('', () => process.exit()))
})

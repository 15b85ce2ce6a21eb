#!/usr/bin/env node
// The package's `fastify-api-versioning` command: `snapshot` and `check` (see main.ts). The exit code is set, not
// forced, so that what is still written to stdout is not cut short.
import { main } from './main.js'

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }).then(code => { process.exitCode = code })

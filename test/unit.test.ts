// The unit layer in one process: every file of test/unit/ adds its tests to the same root `t`, so Node, the
// TypeScript loader, Fastify and lib/ load once (a process per file cost ~3 CPU seconds each, most of the loop).
// The files share that process, so none leaves global state behind (a global meter provider, a listening server,
// a changed environment) once its tests end. One file alone: `npx tap test/unit/<name>.test.ts`.
import { readdirSync } from 'node:fs'

const dir = new URL('./unit/', import.meta.url)
for (const name of readdirSync(dir).filter(name => name.endsWith('.test.ts')).sort()) {
  await import(new URL(name.replace(/\.ts$/, '.js'), dir).href)
}

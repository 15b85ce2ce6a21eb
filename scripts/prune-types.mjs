// The builds' JavaScript is bundled (scripts/bundle.mjs), but the declaration files stay one per module, as tsc
// writes them: keep those that the entries' types import, directly or through others, and remove the rest (the
// modules whose types no export shows), so that the package ships no file that nothing reads.
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { removeEmptyFolders } from './remove-empty-folders.mjs'

const ts = createRequire(import.meta.url)('typescript')
const dist = fileURLToPath(new URL('../dist/esm/', import.meta.url))
const kept = new Set()
const todo = ['index.d.ts', 'openapi/index.d.ts'].map(entry => join(dist, entry))
while (todo.length > 0) {
  const file = todo.pop()
  if (kept.has(file)) continue
  kept.add(file)
  for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8')).importedFiles) {
    if (fileName.startsWith('.')) todo.push(join(dirname(file), fileName).replace(/\.js$/, '.d.ts'))
  }
}
for (const file of readdirSync(dist, { recursive: true }).map(name => join(dist, name))) {
  if (file.endsWith('.d.ts') && !kept.has(file)) rmSync(file)
}
// A folder left with no file in it goes too.
removeEmptyFolders(dist)

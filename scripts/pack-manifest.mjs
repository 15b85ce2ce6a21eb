// `prepare` builds dist/ when the repository is installed (npm ci), but in a published package.json npm 11
// reports it as an install script to approve. `prepack` builds and packs a package.json without it; `postpack`
// puts the repository's back.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'

const manifest = new URL('../package.json', import.meta.url)
const kept = new URL('../package.json.repo', import.meta.url)
if (process.argv[2] === 'strip') {
  const text = readFileSync(manifest, 'utf8')
  writeFileSync(kept, text)
  const json = JSON.parse(text)
  delete json.scripts.prepare
  writeFileSync(manifest, JSON.stringify(json, null, 2) + '\n')
} else {
  renameSync(kept, manifest)
}

// The published package.json holds what a consumer needs (name, version, exports, types, bin, engines, peers,
// metadata) and nothing that runs the repository's tooling: `prepack` builds and writes it without the scripts
// (`prepare` would be an install script for users to approve, `start` deletes dist/ from a package that has no
// sources to build it from), the devDependencies and tap's configuration; `postpack` puts the repository's back.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'

const manifest = new URL('../package.json', import.meta.url)
const kept = new URL('../package.json.repo', import.meta.url)
if (process.argv[2] === 'strip') {
  const text = readFileSync(manifest, 'utf8')
  writeFileSync(kept, text)
  const { scripts, devDependencies, tap, ...published } = JSON.parse(text)
  writeFileSync(manifest, JSON.stringify(published, null, 2) + '\n')
} else {
  renameSync(kept, manifest)
}

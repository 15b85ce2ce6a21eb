// The CommonJS build of the entries. TypeScript's Node16 module setting (TypeScript 7 has no Node10 resolution) takes each
// file's format from the package.json above it, and lib/ is ESM: so a copy of lib/ under a package.json of
// "type": "commonjs" is compiled. One module differs: where the build's `require` resolves from.
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const copy = new URL('../.cjs-src/', import.meta.url)
rmSync(copy, { recursive: true, force: true })
cpSync(new URL('../lib/', import.meta.url), new URL('lib/', copy), { recursive: true })
// The command (the package's bin) runs from the ESM build; it loads CommonJS apps all the same.
rmSync(new URL('lib/cli/', copy), { recursive: true })
writeFileSync(new URL('package.json', copy), '{ "type": "commonjs" }\n')
writeFileSync(new URL('lib/openapi/peer-require.ts', copy), '/** @internal */\nexport const peerRequire: NodeJS.Require = require\n')
try {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.cjs.json'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) })
} finally {
  rmSync(copy, { recursive: true, force: true })
}

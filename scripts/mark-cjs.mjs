// dist/cjs holds CommonJS under a "type": "module" package: say so to Node. And as Fastify plugins do, the
// CommonJS entry exports the plugin itself, with `.default` and the named exports on it; its types say the same
// (`export =` of the plugin merged with a namespace of the named exports, as @fastify/cors's do), so that
// `import plugin = require('fastify-api-versioning')` is the plugin in TypeScript too. The types TypeScript wrote
// for an entry move to `<entry>.exports.d.ts`, which the new ones import (and with it the `fastify` augmentations).
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'

const ts = createRequire(import.meta.url)('typescript')
writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n')
for (const entry of ['index', 'openapi/index']) {
  appendFileSync(new URL(`../dist/cjs/${entry}.js`, import.meta.url),
    'module.exports = Object.defineProperties(exports.default, Object.getOwnPropertyDescriptors(exports));\n')
  const types = fileURLToPath(new URL(`../dist/cjs/${entry}.d.ts`, import.meta.url))
  const moved = types.replace(/\.d\.ts$/, '.exports.d.ts')
  const text = readFileSync(types, 'utf8')
  const plugin = /^export default (\w+);$/m.exec(text)[1]
  // An import alias cannot name what `export type` exported: in these declarations, a plain export is the same.
  writeFileSync(moved, text.replace(/^export (?:type )?\{[^}]*\}/gm, list => list.replace(/^export type /, 'export ').replace(/([{,] )type /g, '$1')))
  rmSync(types)
  const program = ts.createProgram([moved], { noEmit: true, types: [] })
  const checker = program.getTypeChecker()
  const names = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(moved)))
    .map(symbol => symbol.name).filter(name => name !== 'default').sort()
  if (!names.includes(plugin)) throw new Error(`${entry}: the default export ${plugin} is not a named export too`)
  const from = `./${basename(moved, '.d.ts')}.js`
  writeFileSync(types, [
    `import * as entry from '${from}';`,
    `declare function ${plugin}(...args: Parameters<typeof entry.default>): ReturnType<typeof entry.default>;`,
    `declare namespace ${plugin} {`,
    ...names.map(name => `    export import ${name} = entry.${name};`),
    `    export { ${plugin} as default };`,
    '}',
    `export = ${plugin};`,
    ''
  ].join('\n'))
}

// dist/cjs holds CommonJS under a "type": "module" package: say so to Node. And as Fastify plugins do, the
// CommonJS entry exports the plugin itself, with `.default` and the named exports on it.
import { appendFileSync, writeFileSync } from 'node:fs'
writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n')
for (const entry of ['index.js', 'openapi/index.js']) {
  appendFileSync(new URL(`../dist/cjs/${entry}`, import.meta.url),
    'module.exports = Object.defineProperties(exports.default, Object.getOwnPropertyDescriptors(exports));\n')
}

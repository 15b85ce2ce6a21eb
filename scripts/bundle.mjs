// The JavaScript: the ESM build, one file per entry and one chunk that both entries import, so that an app loads
// each module of the package once (one ApiVersion class, one set of registry symbols) in 2 or 3 files. A cold
// start is why (benchmarks/cold-start.mjs): Node's ESM loader pays for each file it resolves, reads, compiles and
// links, and ~60 small files cost ~25 ms. The CommonJS entries are small files that require the ESM build; tsc
// writes the declaration files.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const TARGET = 'node22'
// ES modules are strict code; CommonJS files are only with the directive.
const STRICT = "'use strict';"
// Comments and indentation are a third of the text. Local names are kept: minified, functions keep their names
// (stack traces, printRoutes, Fastify's hook errors) only with esbuild's keepNames, which names every function as it
// is made, so each closure a route keeps grew a property table: 23 MB more heap at 1,000 versionChanges paths.
// Lines are cut short: Node prints the line an uncaught error was thrown on, which was most of a bundle.
const MINIFY = { minifyWhitespace: true, minifySyntax: true, lineLimit: 500 }
const require = createRequire(import.meta.url)

// The ESM build imports no CommonJS package. On Node 20, the first CommonJS package that ES modules import after
// Fastify made Fastify's own start-up (Fastify()) ~25 ms slower, whatever the package (fastify-plugin, or
// @fastify/cors): so fastify-plugin, the only one (60 lines), is bundled in, with its licence, and the
// `require('node:path')` in it becomes an import. The package has no other dependency; the peers stay imports.
const inlineFastifyPlugin = {
  name: 'inline-fastify-plugin',
  setup (build) {
    build.onResolve({ filter: /^fastify-plugin$/ }, () => ({ path: require.resolve('fastify-plugin') }))
    build.onResolve({ filter: /^node:/ }, args => args.kind === 'require-call' ? { path: args.path, namespace: 'builtin' } : undefined)
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, args => ({ contents: `export * from ${JSON.stringify(args.path)}\n`, loader: 'js' }))
    build.onLoad({ filter: /[\\/]fastify-plugin[\\/]index\.js$/ }, args => ({
      contents: `/*! fastify-plugin ${require('fastify-plugin/package.json').version}, bundled:\n${readFileSync(require.resolve('fastify-plugin/LICENSE'), 'utf8')}*/\n${readFileSync(args.path, 'utf8')}`,
      loader: 'js'
    }))
  }
}

const { outputFiles } = await esbuild.build({
  absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
  entryPoints: ['lib/index.ts', 'lib/openapi/index.ts'],
  outbase: 'lib',
  outdir: 'dist/esm',
  bundle: true,
  splitting: true,
  chunkNames: 'shared-[hash]',
  format: 'esm',
  platform: 'node',
  target: TARGET,
  packages: 'external',
  plugins: [inlineFastifyPlugin],
  ...MINIFY,
  write: false,
  logLevel: 'warning'
})
for (const file of outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true })
  writeFileSync(file.path, fromBuiltinModules(file.text))
}

// Node's built-in modules are taken from their module objects (process.getBuiltinModule), not imported: an ES
// module that imports one makes Node read every export of it, lazy ones included, and those of node:http (its
// WebSocket and fetch classes) load undici, ~25 ms of a cold start; node:util's load worker_threads.
function fromBuiltinModules (text) {
  // A namespace or default import is the module object; named imports are its properties.
  return text.replace(/import\s*(?:\{([^}]*)\}|(?:\*\s*as\s+)?(\w+))\s*from\s*"(node:[\w/]+)";/g, (match, names, name, builtin) =>
    `const ${names === undefined ? name : `{${names.replaceAll(' as ', ':')}}`}=process.getBuiltinModule("${builtin}");`)
}

// The CommonJS entries require the ESM build (require(esm), Node 22.12 and later): one copy of each module, so
// an app that loads the package both ways has one ApiVersion class and one set of registry symbols. As Fastify
// plugins do, require() gives the plugin itself, with `.default` and the named exports on it.
for (const entry of ['index', 'openapi/index']) {
  const file = new URL(`../dist/cjs/${entry}.js`, import.meta.url)
  mkdirSync(new URL('.', file), { recursive: true })
  const esm = entry === 'index' ? '../esm/index.js' : '../../esm/openapi/index.js'
  writeFileSync(file, `${STRICT}
const entry = require(${JSON.stringify(esm)});
const { [Symbol.toStringTag]: _, ...named } = Object.getOwnPropertyDescriptors(entry);
module.exports = Object.defineProperties(entry.default, named);
`)
}

// The command (the package's bin), from the ESM build only (it loads CommonJS apps all the same): one file of its
// own, so that the entries' chunks stay as they are. It finds an app's release gate by a global symbol, so its
// own copy of the modules it shares with the entries changes nothing.
await esbuild.build({
  absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
  entryPoints: ['lib/cli/bin.ts'],
  outfile: 'dist/esm/cli/bin.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: TARGET,
  packages: 'external',
  ...MINIFY,
  logLevel: 'warning'
})

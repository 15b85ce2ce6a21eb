// The JavaScript of both builds: per build, one file per entry and one chunk that both entries import, so that an
// app loads each module of the package once (one ApiVersion class, one set of registry symbols) in 2 or 3 files.
// A cold start is why (benchmarks/cold-start.mjs): Node's ESM loader pays for each file it resolves, reads,
// compiles and links, and ~60 small files cost ~25 ms. The CommonJS build is the ESM one (split the same way) with
// each file turned into CommonJS; one module differs: where its `require` resolves from. tsc writes the
// declaration files.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const TARGET = 'node20'
// ES modules are strict code; CommonJS files are only with the directive.
const STRICT = "'use strict';"
const require = createRequire(import.meta.url)

// The ESM build imports no CommonJS package. On Node 20, the first CommonJS package that ES modules import after
// Fastify made Fastify's own start-up (Fastify()) ~25 ms slower, whatever the package (fastify-plugin, or
// @fastify/cors): so fastify-plugin, the only one (60 lines), is bundled in, with its licence, and the
// `require('node:path')` in it becomes an import. Other dependencies and the peers stay imports.
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

// The CommonJS build's peerRequire resolves from its own file, as createRequire(import.meta.url) does in ESM.
const cjsPeerRequire = {
  name: 'cjs-peer-require',
  setup (build) {
    build.onLoad({ filter: /[\\/]lib[\\/]openapi[\\/]peer-require\.ts$/ }, () => ({
      contents: "import { createRequire } from 'node:module'\nexport const peerRequire = createRequire(__filename)\n",
      loader: 'ts'
    }))
  }
}

for (const format of ['esm', 'cjs']) {
  const { outputFiles } = await esbuild.build({
    absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
    entryPoints: ['lib/index.ts', 'lib/openapi/index.ts'],
    outbase: 'lib',
    outdir: `dist/${format}`,
    bundle: true,
    splitting: true,
    chunkNames: 'shared-[hash]',
    format: 'esm',
    platform: 'node',
    target: TARGET,
    packages: 'external',
    plugins: [format === 'esm' ? inlineFastifyPlugin : cjsPeerRequire],
    write: false,
    logLevel: 'warning'
  })
  for (const file of outputFiles) {
    const text = format === 'esm' ? file.text : (await esbuild.transform(file.text, { format: 'cjs', platform: 'node', target: TARGET, banner: STRICT })).code
    mkdirSync(dirname(file.path), { recursive: true })
    writeFileSync(file.path, text)
  }
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
  logLevel: 'warning'
})

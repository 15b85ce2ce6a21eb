// The micro-benchmarks time internal functions, which the package's bundles do not export: this bundles the
// modules they time from lib/ as scripts/bundle.mjs builds the package (esbuild), into .scratch/ (which git
// ignores), and imports that.
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const root = new URL('..', import.meta.url)
const MODULES = {
  'api-version': ['ApiVersion'],
  'request/media-type': ['readMediaTypes', 'resolveMediaTypeOption', 'withMediaTypeVersion'],
  'request/outcome': ['VersionOutcome'],
  'request/readers': ['readRequest']
}

export async function internals () {
  const outfile = fileURLToPath(new URL('.scratch/bench-internals.mjs', root))
  await esbuild.build({
    stdin: { contents: Object.entries(MODULES).map(([path, names]) => `export { ${names.join(', ')} } from './lib/${path}.ts'`).join('\n'), resolveDir: fileURLToPath(root), loader: 'ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning'
  })
  return import(new URL('.scratch/bench-internals.mjs', root).href)
}

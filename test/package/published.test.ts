import t from 'tap'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pack, root } from './packed.js'

// What an npm user gets, as npm would publish it: the manifest, the tarball's size, and a README (the package's
// page on the registry) whose every named file is either in the tarball or said to be the repository's.
const REPOSITORY = 'https://github.com/fastify-api-versioning/fastify-api-versioning'
// The ceiling the tarball stays under: it was 242 kB packed (960 kB unpacked) with benchmark pages and two
// unminified builds; what a user reads or runs is ~171 kB packed, ~581 kB unpacked (2026-11-28, with the version
// changes' single route, the changelog page, schema names, endpoint changes, enums and webhooks; local names kept,
// see scripts/bundle.mjs; the benchmarks' page is the repository's); 185.5 kB and 632 kB on 2026-11-29, with the
// documents' own definitions (anchored, made components in OpenAPI 3.0) and the checks of dangling refs; 194.7 kB
// and 657 kB later that day, with the release gate's guard of the app's process, a moved endpoint's names, the
// checks of contradicting instructions, process warnings without a logger, and the bundle's lines cut at 500
// characters (1.5 kB packed: an uncaught start-up error printed most of the bundle).
const CEILING = { size: 200_000, unpackedSize: 670_000 }

const repository = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

t.test('the published package.json holds what a consumer needs, and nothing that runs the repository tooling', async t => {
  const { unpacked } = pack()
  const published = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'))
  const { scripts, devDependencies, tap, ...consumer } = repository
  t.ok(scripts.prepare !== undefined && devDependencies !== undefined && tap !== undefined, 'the repository has them')
  t.same(published, consumer, 'name, version, exports, types, bin, engines, peers and metadata, as in the repository')
  for (const key of ['scripts', 'devDependencies', 'tap', 'dependencies']) t.notOk(key in published, `no ${key}`)
  t.match(published, { engines: { node: String }, exports: Object, bin: Object, peerDependencies: { fastify: String } })
})

t.test('the tarball stays under its ceiling', async t => {
  const { size, unpackedSize } = pack()
  t.ok(size < CEILING.size, `${size} bytes packed, under ${CEILING.size}`)
  t.ok(unpackedSize < CEILING.unpackedSize, `${unpackedSize} bytes unpacked, under ${CEILING.unpackedSize}`)
})

// A section of the README is for a clone of the repository when its first line says so: "In a clone of the
// [repository](...)". Elsewhere, a file or folder of the repository that the README names (a relative link, or a
// code span that starts with one of the repository's top-level names) is in the tarball, and a script it names
// (`npm start`, `npm run x`, `npm test`, `npm ci`) is one the published manifest has (none).
t.test('every file the README names is in the tarball, or in a section for a clone of the repository', async t => {
  const { files } = pack()
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const topLevel = new Set(readdirSync(root).filter(name => !['node_modules', 'dist', 'coverage', '.tap', '.git', '.scratch'].includes(name)))
  const shipped = (path: string): boolean => files.some(file => file === path || file.startsWith(path.replace(/\/?$/, '/')))
  const sections = readme.split(/^(?=## )/m)
  const forClone = sections.filter(section => /^## .*\n\nIn a clone of the \[repository\]\(https:\/\/github\.com\/fastify-api-versioning\/fastify-api-versioning\):\n/.test(section))
  t.same(forClone.map(section => section.split('\n')[0]), ['## Example service', '## Development'], 'the sections for a clone')
  let named = 0
  for (const section of sections.filter(section => !forClone.includes(section))) {
    const heading = section.split('\n')[0]
    for (const [, target] of section.matchAll(/\]\(((?!https?:|#)[^)#\s]+)/g)) {
      named++
      t.ok(shipped(target), `${heading}: the link to ${target} leads into the tarball`)
    }
    for (const [, span] of section.matchAll(/`([^`\n]+)`/g)) {
      const path = span.split(/\s+/).find(word => topLevel.has(word.replace(/^\.\//, '').split('/')[0]))
      if (path !== undefined) {
        named++
        t.ok(shipped(path.replace(/^\.\//, '')), `${heading}: \`${span}\` names a file in the tarball`)
      }
      t.notMatch(span, /^npm (start|test|ci|run )/, `${heading}: \`${span}\` is no script of the published package`)
    }
  }
  t.ok(named > 5, `${named} names outside the sections for a clone`)
  // The links to the repository lead to its files.
  for (const [, path] of readme.matchAll(new RegExp(`\\]\\(${REPOSITORY}/blob/main/([^)#\\s]+)`, 'g'))) {
    t.ok(existsSync(join(root, path)), `${path}: in the repository`)
  }
})

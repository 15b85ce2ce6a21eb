import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { appWithPackage, env, root } from './packed.js'

// Every JavaScript or TypeScript block of the README and the guides runs, as the Markdown has it, on the packed
// package in a fresh app. The conventions a block follows, written in the Markdown:
// - `<!-- fragment -->` on the line right before the fence: a piece of code that is not meant to run alone; not run.
// - `<!-- continues -->` there: the block runs after the ones before it on the page (from the last block without
//   the marker), as one module; those are not run alone.
// - A block whose first line is a comment naming a file (`// app.js`, `// routes/v1/orders.js: ...`) is that file
//   of one app per page, written to that path; the page's `app.js` is then imported, and its default export, a
//   function, called (it builds the app).
// - Other blocks run as an ES module (a TypeScript one with Node's type stripping) that may use, without declaring
//   them, the names of GIVEN: what the README's quick start has already set up.
// - A comment of the form `// GET /path?query -> 200` (any method) is a request the block's first app answers with
//   that status, injected once the block has run.
// Every app a block makes is readied (its registrations must succeed), and `listen()` readies it instead of
// taking a port. A page still being rewritten can be left out for now (PENDING), never a block of it.
const PAGES = ['README.md', ...readdirSync(join(root, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)]
const PENDING = new Set<string>([])
const GIVEN: Record<string, string> = {
  Fastify: "import Fastify from 'fastify'",
  app: 'const app = Fastify()',
  apiVersioning: "import apiVersioning from 'fastify-api-versioning'",
  apiVersioningOpenApi: "import apiVersioningOpenApi from 'fastify-api-versioning/openapi'",
  Type: "import { Type } from '@sinclair/typebox'",
  handler: 'const handler = async () => ({})'
}
// What the package's peers are, and what blocks import.
const LINKED = ['fastify', 'fast-json-stringify', '@fastify/swagger', '@fastify/swagger-ui', '@opentelemetry/api', '@sinclair/typebox']

// Runs in each block's process: makes listen() ready the app, readies every app once the block has run, injects
// the block's requests into the first, and prints their statuses.
const HARNESS = `import { subscribe } from 'node:diagnostics_channel'
const apps = []
subscribe('fastify.initialization', ({ fastify }) => {
  apps.push(fastify)
  fastify.listen = async () => { await fastify.ready(); return 'http://127.0.0.1:3000' }
})
let ran = false
process.on('beforeExit', async () => {
  if (ran) return
  ran = true
  for (const app of apps) await app.ready()
  const statuses = []
  for (const [method, url] of JSON.parse(process.env.DOC_REQUESTS)) statuses.push((await apps[0].inject({ method, url })).statusCode)
  for (const app of apps) await app.close()
  console.log(JSON.stringify({ apps: apps.length, statuses }))
})
`

interface Block { page: string, line: number, lang: string, code: string, marker?: string }

function blocks (page: string): Block[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n')
  const found: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)$/.exec(lines[i])
    if (open === null) continue
    const end = lines.indexOf('```', i + 1)
    if (['js', 'mjs', 'ts'].includes(open[1])) {
      found.push({ page, line: i + 1, lang: open[1], code: lines.slice(i + 1, end).join('\n') + '\n', marker: /^<!-- (\w+) -->$/.exec(lines[i - 1] ?? '')?.[1] })
    }
    i = end
  }
  return found
}

const fileOf = (block: Block): string | undefined => /^\/\/ ([\w./-]+\.[cm]?[jt]s)(:|$)/m.exec(block.code.split('\n')[0])?.[1]
const uncommented = (code: string): string => code.replace(/\/\/.*$/gm, '')
const declared = (code: string): Set<string> => new Set([
  ...[...code.matchAll(/^import\s+(?:type\s+)?(\w+)/gm)].map(m => m[1]),
  ...[...code.matchAll(/^import\s+[^'"]*?\{([^}]*)\}/gm)].flatMap(m => m[1].split(',').map(name => name.trim().split(/\s+as\s+/).at(-1) as string)),
  ...[...code.matchAll(/^import\s+\*\s+as\s+(\w+)/gm)].map(m => m[1]),
  ...[...code.matchAll(/\b(?:const|let|var|function|class)\s+(\w+)/g)].map(m => m[1])
])
/** The block with what it uses of GIVEN and does not declare itself (and what that needs) put before it. */
function withGiven (code: string): string {
  const own = declared(code)
  const used = new Set(Object.keys(GIVEN).filter(name => !own.has(name) && new RegExp(`\\b${name}\\b`).test(uncommented(code))))
  if (used.has('app') && !own.has('Fastify')) used.add('Fastify')
  return [...Object.keys(GIVEN).filter(name => used.has(name)).map(name => GIVEN[name]), code].join('\n')
}
const requests = (code: string): Array<[string, string, number]> =>
  [...code.matchAll(/^\/\/ (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/\S*)\s+-> (\d{3})\b/gm)].map(m => [m[1], m[2], Number(m[3])])

/** Each program to run: a block with the blocks it continues, or a page's app of file blocks. */
function programs (page: string): Array<{ name: string, files: Record<string, string>, entry: string, lang: string, code: string }> {
  const all = blocks(page).filter(block => block.marker !== 'fragment')
  const result = []
  const files = all.filter(block => fileOf(block) !== undefined)
  if (files.length > 0) {
    const dir = page.replace(/\W/g, '-')
    const entry = `${dir}/run-app.mjs`
    result.push({
      name: `${page}: the app of its files (${files.map(fileOf).join(', ')})`,
      files: { ...Object.fromEntries(files.map(block => [`${dir}/${fileOf(block)}`, block.code])), [entry]: "const { default: build } = await import('./app.js')\nawait build()\n" },
      entry,
      lang: 'js',
      code: files.map(block => block.code).join('\n')
    })
  }
  const others = all.filter(block => fileOf(block) === undefined)
  others.forEach((block, i) => {
    if (others[i + 1]?.marker === 'continues') return
    let first = i
    while (others[first].marker === 'continues' && first > 0) first--
    const chain = others.slice(first, i + 1)
    const code = withGiven(chain.map(b => b.code).join('\n'))
    const entry = `${page.replace(/\W/g, '-')}-${block.line}.${block.lang === 'ts' ? 'mts' : 'mjs'}`
    result.push({ name: `${page}:${chain.map(b => b.line).join('+')}`, files: { [entry]: code }, entry, lang: block.lang, code })
  })
  return result
}

t.test('every block of code in the README and the guides runs on the packed package', async t => {
  const app = appWithPackage(t.teardown)
  for (const dep of LINKED) app.link(dep)
  const imported = new Set<string>()
  const pages = PAGES.filter(page => !PENDING.has(page))
  const markers = pages.flatMap(blocks).flatMap(block => block.marker === undefined ? [] : [`${block.page}:${block.line} ${block.marker}`])
  t.same(markers.filter(marker => !/ (fragment|continues)$/.test(marker)), [], 'no marker the runner does not know')
  const all = pages.flatMap(programs)
  for (const { code } of all) {
    for (const [, specifier] of code.matchAll(/^import\s[^'"]*['"]([^'"./][^'"]*)['"]/gm)) {
      const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')
      if (name !== 'fastify-api-versioning' && !name.startsWith('node:') && !LINKED.includes(name)) imported.add(name)
    }
  }
  for (const dep of imported) app.link(dep)
  app.write('harness.mjs', HARNESS)
  t.ok(all.length >= 15, `${all.length} programs`)
  for (const program of all) {
    for (const [file, text] of Object.entries(program.files)) {
      mkdirSync(dirname(join(app.dir, file)), { recursive: true })
      app.write(file, text)
    }
    const wanted = requests(program.code)
    const strip = program.lang === 'ts' && process.features.typescript === false ? ['--experimental-strip-types'] : []
    const child = spawnSync(process.execPath, [...strip, '--import', './harness.mjs', program.entry], {
      cwd: app.dir, env: { ...env, DOC_REQUESTS: JSON.stringify(wanted) }, encoding: 'utf8', timeout: 60_000
    })
    const report = child.status === 0 ? JSON.parse(child.stdout.trim().split('\n').at(-1) as string) : undefined
    // The end of what it printed: the error (a minified line of the build before it says little).
    t.equal(child.status, 0, `${program.name}: runs${child.status === 0 ? '' : `\n${child.stderr.split('\n').slice(-12).join('\n').slice(-2000)}`}`)
    t.same(report?.statuses, wanted.map(([, , status]) => status), `${program.name}: ${wanted.map(([method, url, status]) => `${method} ${url} -> ${status}`).join(', ') || 'no request'}`)
  }
})

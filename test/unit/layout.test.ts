import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, resolve } from 'node:path'

// The folders of lib/ in a request's flow, and the modules of the root, each where it stands: a module imports its
// own folder's and those of the places before it, never one after it (an import that runs back up the flow is a
// piece in the wrong folder: move it, or let the wiring hand the function over). The first place holds what every
// stage shares; the runtime stages follow the request (request → routing → version-changes → lifecycle →
// problems, observed by telemetry); options.ts resolves every stage's options; state.ts is what the plugin
// publishes to the openapi entry; changes/ compares the documents that openapi/ builds and cli/ checks; index.ts wires.
const FLOW: ReadonlyArray<readonly string[]> = [
  ['errors.ts', 'api-version.ts', 'fastify-range.ts', 'util'],
  ['request'],
  ['routing'],
  ['version-changes'],
  ['lifecycle'],
  ['problems'],
  ['telemetry'],
  ['options.ts'],
  ['state.ts'],
  ['changes'],
  ['openapi'],
  ['cli'],
  ['index.ts']
]
const PLACE = new Map(FLOW.flatMap((places, rank) => places.map(place => [place, rank] as const)))

const lib = resolve(import.meta.dirname, '..', '..', 'lib')

/** Every TypeScript module of lib/, by its path from lib/ (`routing/constraint.ts`). */
function modules (dir = lib): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return modules(path)
    return entry.name.endsWith('.ts') ? [relative(lib, path).split('\\').join('/')] : []
  })
}

// Static imports and re-exports (type-only ones too: they are imports), side-effect imports and import() of a
// literal: the statement's first word at the start of a line, so a doc comment's example is not one.
const IMPORTS = /^(?:import|export)\b[^'"`;]*?\bfrom\s*'([^']+)'|^import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm

/** The modules of lib/ that `file` imports. */
function importsOf (file: string): string[] {
  const text = readFileSync(join(lib, file), 'utf8')
  return [...text.matchAll(IMPORTS)]
    .map(match => match[1] ?? match[2] ?? match[3])
    .filter(specifier => specifier.startsWith('.'))
    .map(specifier => posix.normalize(posix.join(posix.dirname(file), specifier.replace(/\.js$/, '.ts'))))
}

/** A module's place in the flow: its folder under lib/, or the module itself at the root. */
function placeOf (file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : file
}

const files = modules()
const graph = new Map(files.map(file => [file, importsOf(file)]))

t.test('the imports are read', async t => {
  t.ok(files.length > 100, `${files.length} modules`)
  t.ok(graph.get('index.ts')?.includes('routing/declare-routes.ts'), 'an import')
  t.ok(graph.get('lifecycle/lifecycle.ts')?.includes('routing/constraint.ts'), 'a type-only import')
  t.ok(graph.get('openapi/index.ts')?.includes('changes/compare-versions.ts'), 'an import over lines')
  const unknown = [...graph].flatMap(([file, imported]) => imported.filter(target => !graph.has(target)).map(target => `${file} -> ${target}`))
  t.same(unknown, [], 'every import names a module of lib/')
})

t.test('every folder of lib/, and every module at its root, has its place in the flow', async t => {
  t.same([...new Set(files.map(placeOf))].filter(place => !PLACE.has(place)).sort(), [], 'add it to FLOW, where it stands')
})

t.test('no import runs back up the flow', async t => {
  const upward: string[] = []
  for (const [file, imported] of graph) {
    const from = placeOf(file)
    for (const target of imported) {
      const to = placeOf(target)
      if (to !== from && (PLACE.get(to) as number) > (PLACE.get(from) as number)) upward.push(`${file} -> ${target}`)
    }
  }
  t.same(upward, [], 'a piece that a later stage and an earlier one both need belongs in util/; a later stage\'s function is handed over by index.ts')
})

t.test('no import circle anywhere in lib/', async t => {
  const circles: string[] = []
  // Depth first: a module met again while it is on the path closes a circle.
  const done = new Set<string>()
  const path: string[] = []
  function visit (file: string): void {
    const at = path.indexOf(file)
    if (at !== -1) {
      circles.push([...path.slice(at), file].join(' -> '))
      return
    }
    if (done.has(file)) return
    path.push(file)
    for (const target of graph.get(file) ?? []) visit(target)
    path.pop()
    done.add(file)
  }
  for (const file of files) visit(file)
  t.same(circles, [], 'a type that two modules share is a module of its own')
})

t.test('an import is read as a statement, over lines, and not in a comment', async t => {
  const text = "import type { A } from './a.js'\nexport {\n  b\n} from '../routing/b.js'\n// import { c } from './c.js'\n * import { d } from './d.js'\nconst e = await import('./e.js')\n"
  t.same([...text.matchAll(IMPORTS)].map(match => match[1] ?? match[2] ?? match[3]), ['./a.js', '../routing/b.js', './e.js'])
})

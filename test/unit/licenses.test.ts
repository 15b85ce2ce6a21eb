import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

// The licences of what runs in a user's app beside the package: its dependencies (none: fastify-plugin is bundled
// in, with its licence) and its peers, each with the packages they depend on, as npm installed them here. Each is
// one that lets the package be used, changed and shipped under MIT without conditions of its own on the app.
const ALLOWED = new Set(['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0', '0BSD', 'BlueOak-1.0.0', 'Unlicense', 'CC0-1.0', 'Python-2.0'])
const root = resolve(import.meta.dirname, '..', '..')

interface Manifest { name: string, version: string, license?: string, dependencies?: Record<string, string>, optionalDependencies?: Record<string, string> }

/** The folder of `name` as Node resolves it from `from`: the nearest node_modules that has it. */
function locate (name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

t.test('every package of the runtime tree has a permissive licence', async t => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  t.same(manifest.dependencies ?? {}, {}, 'no dependencies: the tree is the peers\'')
  const seen = new Map<string, string>()
  const todo = Object.keys(manifest.peerDependencies).map(name => [name, root])
  todo.push(['fastify-plugin', root])
  while (todo.length > 0) {
    const [name, from] = todo.pop() as [string, string]
    const dir = locate(name, from)
    // An optional dependency of another platform is not installed here.
    if (dir === undefined || seen.has(dir)) continue
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
    seen.set(dir, `${pkg.name}@${pkg.version}: ${pkg.license}`)
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) todo.push([dep, dir])
  }
  t.ok(seen.size > 50, `${seen.size} packages`)
  for (const entry of seen.values()) {
    const license = entry.slice(entry.indexOf(': ') + 2)
    // An SPDX expression with OR is allowed when one of its choices is.
    t.ok(license.replace(/[()]/g, '').split(/ OR /).some(choice => ALLOWED.has(choice.trim())), entry)
  }
})

import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'

// The package as npm publishes it, for the package layer: the apps that install it (package, TypeBox set-ups,
// lowest peers, the optional peer) and the example service, which runs on it. Packing builds dist/ and swaps
// package.json, so it happens once per state of the sources, under a lock: `npm run test:package` packs before
// its files start (test/package/pack.ts), and they, run in parallel, reuse the tarball.
export const root = resolve(import.meta.dirname, '..', '..')
export const env = { ...process.env, NODE_V8_COVERAGE: undefined, NODE_OPTIONS: undefined }
// On Windows npm is a .cmd script, which only a shell runs. No command runs for ever, however busy the host: a
// bound far above any (the whole layer has no per-file limit).
export const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: cmd === 'npm' && process.platform === 'win32', timeout: 900_000 })
export const tsc = (cwd: string, project: string): string =>
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], cwd)

export interface Packed {
  /** The tarball. */
  readonly tarball: string
  /** The files it holds, as `npm pack --json` lists them. */
  readonly files: readonly string[]
  /** Its size in bytes, and the size of what it unpacks to. */
  readonly size: number
  readonly unpackedSize: number
  /** The folder it unpacks to (its `package/`), shared: not to be written. */
  readonly unpacked: string
}

function sourcesHash (): string {
  const hash = createHash('sha256')
  const add = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name))
    } else {
      hash.update(relative(root, path)).update(readFileSync(path))
    }
  }
  for (const path of ['lib', 'scripts', 'docs', 'benchmarks/README.md', 'package.json', 'README.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json']) add(join(root, path))
  return hash.digest('hex').slice(0, 16)
}

export function pack (): Packed {
  const cache = join(root, '.tap', 'packed')
  mkdirSync(cache, { recursive: true })
  const lock = join(cache, 'lock')
  const until = Date.now() + 900_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // A lock older than any pack is one a killed run left (and one released since the mkdir is gone).
      const held = statSync(lock, { throwIfNoEntry: false })
      if (held !== undefined && Date.now() - held.mtimeMs > 900_000) rmSync(lock, { recursive: true, force: true })
      if (Date.now() > until) throw new Error(`no pack: ${lock} is held`)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250)
    }
  }
  try {
    const dir = join(cache, sourcesHash())
    const listing = join(dir, 'pack.json')
    if (!existsSync(listing)) {
      // The tarballs of sources that changed since.
      for (const name of readdirSync(cache)) if (name !== 'lock') rmSync(join(cache, name), { recursive: true, force: true })
      const fresh = mkdtempSync(join(cache, 'fresh-'))
      const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', fresh], root))[0]
      writeFileSync(join(fresh, 'pack.json'), JSON.stringify({
        tarball: packed.filename, files: packed.files.map((f: { path: string }) => f.path), size: packed.size, unpackedSize: packed.unpackedSize
      }))
      renameSync(fresh, dir)
    }
    const { tarball, files, size, unpackedSize } = JSON.parse(readFileSync(listing, 'utf8'))
    // Unpacked once beside it, for what runs on the package in place (the example service).
    const unpacked = join(dir, 'package')
    if (!existsSync(unpacked)) run('tar', ['-xzf', tarball, '-C', dir], dir)
    return { tarball: join(dir, tarball), files, size, unpackedSize, unpacked }
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

export interface App {
  readonly dir: string
  readonly modules: string
  /** Writes a file of the app. */
  write (name: string, text: string): void
  /** Links a package of the repository's node_modules (`from`, default `name`) as `name` in the app's. */
  link (name: string, from?: string): void
  /** Copies one instead: its own imports then resolve in the app (TypeScript follows links to where they point). */
  copy (name: string, from?: string): void
  /** Runs a script of the app with Node, and gives its output. */
  node (...args: string[]): string
}

/**
 * A fresh app in a temporary folder (removed by `teardown`) with the packed package installed, as npm would;
 * its dependencies are added with `link` or `copy`.
 */
export function appWithPackage (teardown: (fn: () => void) => void, type: 'module' | 'commonjs' = 'module'): App {
  const { tarball } = pack()
  const dir = mkdtempSync(join(tmpdir(), 'fav-app-'))
  teardown(() => rmSync(dir, { recursive: true, force: true }))
  const modules = join(dir, 'node_modules')
  mkdirSync(modules)
  run('tar', ['-xzf', tarball, '-C', dir], dir)
  renameSync(join(dir, 'package'), join(modules, 'fastify-api-versioning'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }))
  const place = (name: string): string => {
    mkdirSync(dirname(join(modules, name)), { recursive: true })
    return join(modules, name)
  }
  return {
    dir,
    modules,
    write: (name, text) => writeFileSync(join(dir, name), text),
    // A junction on Windows, where a directory link needs no rights.
    link: (name, from = name) => symlinkSync(join(root, 'node_modules', from), place(name), 'junction'),
    copy: (name, from = name) => cpSync(join(root, 'node_modules', from), place(name), { recursive: true, dereference: true }),
    node: (...args) => run(process.execPath, args, dir)
  }
}

import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ReleaseGate } from '../changes/release-gate.js'
import { kState } from '../state.js'
import { isObject } from '../util/is-object.js'
import { isThenable } from '../util/is-thenable.js'
import type { StartWait } from './bounded.js'
import { Failure, reasonOf } from './failure.js'

/** A Fastify instance, as far as the command uses one. */
export interface App {
  ready (): PromiseLike<unknown>
  close (): PromiseLike<unknown>
  [kState]?: { readonly releaseGate: ReleaseGate | null }
}

/**
 * The app of `--app`: the module, imported by its absolute file URL (resolved from `cwd`), default-exports a
 * Fastify instance (in CommonJS, `module.exports` is the default export), a promise of one, or a function that
 * returns one or a promise of one. Not ready yet: the caller makes it ready, and closes it whatever happens.
 * Given in an object: a Fastify instance is a thenable (it loads its plugins), which a promise would wait for.
 * Each step is bounded by `wait` (a top-level await or a build that never ends).
 */
export async function loadApp (specifier: string, cwd: string, wait: StartWait): Promise<{ app: App }> {
  const flag = `--app ${specifier}`
  const module = await step(wait, async () => await importModule(pathToFileURL(resolve(cwd, specifier)).href),
    `${flag}: the module failed to load`, 'the module did not finish loading')
  if (!Object.hasOwn(module, 'default')) {
    throw new Failure(`${flag}: the module has no default export (its exports: [${Object.keys(module).join(', ')}]): export default your Fastify instance, or a function returning one`)
  }
  let app = module.default
  if (typeof app === 'function') {
    const build = app as () => unknown
    const plugin = pluginAdvice(build.length)
    app = await step(wait, build, `${flag}: its default export, a function, failed`, 'its default export, a function, did not return', plugin)
    if (!isApp(app)) throw new Failure(`${flag}: its default export, a function, returned ${describe(app)}: expected a Fastify instance${plugin}`)
  } else if (isThenable(app) && !isApp(app)) {
    // `export default build()`: a promise of the app (a Fastify instance is a thenable too, and is taken as it is).
    const promised = app
    app = await step(wait, () => promised, `${flag}: its default export, a promise, rejected`, 'its default export, a promise, did not settle')
    if (!isApp(app)) throw new Failure(`${flag}: its default export, a promise, gave ${describe(app)}: expected a Fastify instance`)
  } else if (!isApp(app)) {
    throw new Failure(`${flag}: its default export is ${describe(app)}: expected a Fastify instance, or a function returning one`)
  }
  return { app }
}

/**
 * Makes the app ready, within `wait`, and gives what the openapi entry keeps for the command, in the state of the
 * apiVersioning of the app's root, where the entry is registered in the app itself or in a plugin (under a prefix).
 */
export async function gateOf (app: App, specifier: string, wait: StartWait): Promise<ReleaseGate> {
  const flag = `--app ${specifier}`
  await step(wait, async () => await app.ready(), `${flag}: the app failed to start (ready())`, 'the app did not become ready (ready())')
  const state = app[kState]
  if (state === undefined) {
    throw new Failure(`${flag}: the app has no apiVersioning the command can reach, which it reads the documents from: register apiVersioning in the app itself (the instance --app gives), not inside a plugin, then fastify-api-versioning/openapi`)
  }
  if (state.releaseGate === null) {
    throw new Failure(`${flag}: the app has no OpenAPI documents: register fastify-api-versioning/openapi in it (after apiVersioning, before the routes)`)
  }
  return state.releaseGate
}

// A module Node will not load (TypeScript, where it strips no types) is said with the ways to load it.
async function importModule (url: string): Promise<Record<string, unknown>> {
  try {
    return await import(url)
  } catch (error) {
    if (!(error instanceof Error && (error as NodeJS.ErrnoException).code === 'ERR_UNKNOWN_FILE_EXTENSION')) throw error
    throw new Error(`${error.message}: Node ${process.version} loads no such file by itself. For TypeScript: use Node 22.18 or later (it strips types), run the command through tsx (npx tsx node_modules/.bin/fastify-api-versioning ...), or compile the app and give --app its .js (docs/openapi.md, "A TypeScript app")`)
  }
}

// A step of the start, bounded by `wait` (`late` says what did not finish): what it gives, or what it throws as a
// Failure after `failed`.
async function step<T> (wait: StartWait, run: () => T | PromiseLike<T>, failed: string, late: string, advice = ''): Promise<Awaited<T>> {
  const work = (async () => await run())().catch((error: unknown) => { throw new Failure(`${failed}: ${reasonOf(error)}${advice}`) })
  return await wait(work, late)
}

// A function that declares parameters may be a Fastify plugin (fastify-cli's app.js: async function (fastify, opts)),
// which, called with none as a builder is, fails on the instance it was not given: what went wrong says only that.
function pluginAdvice (parameters: number): string {
  if (parameters === 0) return ''
  return '; it takes parameters, as a Fastify plugin does (fastify-cli\'s app.js), but --app calls it with none and wants the app: export a function that builds the app and registers the plugin in it (export default async () => { const app = Fastify(); await app.register(plugin); return app })'
}

function isApp (value: unknown): value is App {
  return isObject(value) && typeof value.ready === 'function' && typeof value.close === 'function'
}

function describe (value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  return isObject(value) ? `an object with keys [${Object.keys(value).join(', ')}]` : String(value)
}

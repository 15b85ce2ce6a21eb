import { spawn } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { env, pack, root } from './packed.js'

// example/server.mjs imports the package's build (../dist/esm/...), as `npm start` runs it: the tests run it on
// the packed package instead, what npm would publish, with no TypeScript loader.
const fromPackage = (unpacked: string): string => `export async function resolve (specifier, context, next) {
  if (context.parentURL?.endsWith('/example/server.mjs') && specifier.startsWith('../dist/esm/')) {
    return next(${JSON.stringify(pathToFileURL(unpacked).href + '/')} + specifier.slice(3), context)
  }
  return next(specifier, context)
}`
const register = (hooks: string): string => `import { register } from 'node:module'; register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(hooks))})`

/**
 * Starts the example service (`npm start`) on a free port, as its own process, with `extra` added to its
 * environment; resolves with its base URL once it listens, and what it has printed so far (`output()`).
 * `teardown` is given the function that stops it (and resolves once it has exited).
 */
export async function startExample (teardown: (stop: () => Promise<void>) => void, extra: Record<string, string> = {}): Promise<{ base: string, output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'data:text/javascript,' + encodeURIComponent(register(fromPackage(pack().unpacked))), 'example/server.mjs'], {
    cwd: root,
    env: { ...env, PORT: '0', ...extra },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  // Stopped once it has exited, so that nothing outlives the test.
  teardown(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>(resolve => child.once('exit', () => resolve()))
    child.kill()
    await exited
  })
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      const base = /^Orders API on (http:\/\/\S+)/m.exec(output)?.[1]
      if (base !== undefined) resolve({ base, output: () => output })
    })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk })
    child.on('exit', code => reject(new Error(`the example service exited (${code}) before it listened:\n${output}`)))
  })
}

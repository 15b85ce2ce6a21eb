import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

// example/server.mjs imports the built package (../dist/esm/...): the tests run it on the sources instead, with
// the TypeScript loader this process runs under.
const FROM_SOURCES = `export async function resolve (specifier, context, next) {
  if (context.parentURL?.endsWith('/example/server.mjs') && specifier.startsWith('../dist/esm/')) {
    return next(specifier.replace('../dist/esm/', '../lib/').replace(/\\.js$/, '.ts'), context)
  }
  return next(specifier, context)
}`
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(FROM_SOURCES))})`

/**
 * Starts the example service (`npm start`) on a free port, as its own process, with `env` added to its
 * environment; resolves with its base URL once it listens, and what it has printed so far (`output()`).
 * `teardown` is given the function that stops it (and resolves once it has exited).
 */
export async function startExample (teardown: (stop: () => Promise<void>) => void, env: Record<string, string> = {}): Promise<{ base: string, output: () => string }> {
  const child = spawn(process.execPath, [...process.execArgv, '--import', 'data:text/javascript,' + encodeURIComponent(REGISTER), 'example/server.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  // Stopped once it has exited: its coverage is written by then, before tap reads it.
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

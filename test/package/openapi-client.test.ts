import t from 'tap'
import { spawnSync } from 'node:child_process'
import { copyFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import openapiTS, { astToString } from 'openapi-typescript'
import type { OpenApiDocument } from '../../lib/openapi/index.js'
import { startExample } from './example-server.js'
import { operations, problemsOf } from '../unit/openapi-helpers.js'

// The promise of the documents: a client generated from them is typed right for every response the server sends.
const root = resolve(import.meta.dirname, '..', '..')

/** What example/client.ts records of each response (it is compiled apart, once its types are generated). */
interface Call { version: string, operationId: string, status: number, mediaType: string, body: unknown }

t.test('a client generated from each version\'s document is typed right for every response of the example service', async t => {
  const { base } = await startExample(stop => t.teardown(stop))
  const config = await (await fetch(`${base}/openapi/swagger-config`)).json() as { urls: Array<{ url: string }> }
  const documents = new Map<string, OpenApiDocument>()
  for (const { url } of config.urls) {
    const document = await (await fetch(base + url)).json() as OpenApiDocument
    documents.set(document.info.version, document)
    t.same(await problemsOf(document), [], `${document.info.version}: a valid document`)
  }
  t.same([...documents.keys()].sort(), ['0.9', '1.0', '2.0'])

  // openapi-typescript writes each document's types beside the client program, which must compile under --strict
  // (the generated types and the program are what is checked, not the libraries' declaration files).
  const dir = t.testdir({ generated: {} })
  for (const [version, document] of documents) {
    writeFileSync(join(dir, 'generated', `${version}.ts`), astToString(await openapiTS(document as never)))
  }
  copyFileSync(join(root, 'example', 'client.ts'), join(dir, 'client.ts'))
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--skipLibCheck', join(dir, 'client.ts')
  ], { cwd: dir, encoding: 'utf8', timeout: 900_000 })
  t.equal(tsc.stdout + tsc.stderr, '', 'tsc --noEmit --strict: no error')
  t.equal(tsc.status, 0)

  const { callEverything } = await import(pathToFileURL(join(dir, 'client.ts')).href) as { callEverything: (base: string) => Promise<Call[]> }
  const calls = await callEverything(base)

  // Each body has the shape its document (and so its generated type) gives its status and media type.
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const answered = new Set(calls.map(call => `${call.version} ${call.operationId} ${call.status} ${call.mediaType}`))
  for (const [version, document] of documents) {
    for (const [label, operation] of Object.entries(operations(document))) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, { content?: Record<string, { schema: object }> }>)) {
        for (const [mediaType, { schema }] of Object.entries(response.content ?? {})) {
          const documented = `${version} ${operation.operationId} ${status} ${mediaType}`
          t.ok(answered.has(documented), `${documented} (${label}) is answered`)
          const validate = ajv.compile({ ...schema, components: document.components })
          for (const call of calls.filter(c => `${c.version} ${c.operationId} ${c.status} ${c.mediaType}` === documented)) {
            t.ok(validate(call.body), `${documented}: ${JSON.stringify(call.body)} ${ajv.errorsText(validate.errors)}`)
          }
          answered.delete(documented)
        }
      }
    }
  }
  t.same([...answered], [], 'every response received is documented')
})

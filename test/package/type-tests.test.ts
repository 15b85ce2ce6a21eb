import t from 'tap'
import { spawnSync } from 'node:child_process'
import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { appWithPackage, env, root } from './packed.js'

// The type tests of what npm would publish, with tstyche, as Fastify's plugins have them: test/package/types/
// (left out of the repository's own type check, whose sources they do not import) run in a fresh app that has the
// packed package, ESM and CommonJS, against the TypeScript installed here (no other version is downloaded), and
// with the package's declaration files checked too.
t.test('the shipped declaration files pass the type tests (tstyche)', async t => {
  const app = appWithPackage(t.teardown)
  for (const dep of ['fastify', 'fast-json-stringify', '@types/node', '@fastify/swagger', '@fastify/swagger-ui', '@sinclair/typebox', 'typescript', 'tstyche']) app.link(dep)
  cpSync(join(root, 'test', 'package', 'types'), app.dir, { recursive: true })
  app.write('tsconfig.json', JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'] }
  }))
  app.write('tstyche.json', JSON.stringify({ checkDeclarationFiles: true, target: '*' }))
  const run = spawnSync(process.execPath, [join(app.modules, 'tstyche', 'dist', 'bin.js')], { cwd: app.dir, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 300_000 })
  t.equal(run.status, 0, run.status === 0 ? 'tstyche passes' : run.stdout + run.stderr)
  t.match(run.stdout, /Test files:\s+3 passed, 3 total/)
  t.notMatch(run.stdout + run.stderr, /download|adds TypeScript/i, 'the installed TypeScript')
})

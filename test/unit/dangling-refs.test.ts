import t from 'tap'
import { anchored } from '../../lib/changes/anchored-refs.js'
import { releaseGate } from '../../lib/changes/release-gate.js'
import type { ChangesContext } from '../../lib/changes/changes-context.js'
import type { OpenApiDocument } from '../../lib/changes/document.js'

const documentOf = (schema: unknown, schemas: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: { '/a': { get: { responses: { 200: { description: 'A', content: { 'application/json': { schema } } } } } } },
  components: { schemas }
})
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

t.test("a document's refs that name nothing in it, each once, in the order met", async t => {
  const rows: Array<[string, OpenApiDocument, string[]]> = [
    ['every ref resolves', documentOf(ref('A'), { A: { type: 'object', properties: { b: ref('B') } }, B: {} }), []],
    ['a component left out, named twice', documentOf({ anyOf: [ref('Node'), { items: ref('Node') }] }), ['#/components/schemas/Node']],
    ['in a component', documentOf(ref('A'), { A: { properties: { b: ref('B') } } }), ['#/components/schemas/B']],
    ['a pointer into a schema that has no such place', documentOf({ properties: { a: { $ref: '#/paths/~1a/get/responses/200/content/application~1json/schema/$defs/X' } } }), ['#/paths/~1a/get/responses/200/content/application~1json/schema/$defs/X']],
    ['a parameter of the operation, no schema', { ...documentOf({}), paths: { '/a': { get: { parameters: [{ $ref: '#/components/parameters/Page' }], responses: {} } } } }, ['#/components/parameters/Page']],
    ["another document's ref: not this one's to resolve", documentOf({ $ref: 'other.json#/A' }), []],
    ['a $ref in data (an example, a default)', documentOf({ type: 'object', default: { $ref: '#/nothing' }, examples: [{ $ref: '#/nothing' }] }), []]
  ]
  for (const [rule, document, expected] of rows) t.same(anchored(document).dangling, expected, rule)
})

t.test('the release gate names the first three a document lacks, and how many more', async t => {
  const context: ChangesContext = { versionParameters: new Set(), versionHeaders: new Set(), mediaType: null, templates: [], segmentName: null, renames: [], hidden: [] }
  const gate = releaseGate({ served: () => ({ documents: [], context }), policies: new Map(), now: () => 0 })
  const many = documentOf({ anyOf: ['A', 'B', 'C', 'D', 'E'].map(ref) })
  t.throws(() => gate.compare({ version: '1.0', deprecated: false, document: many }, { version: '1.0', deprecated: false, document: documentOf({}) }), {
    message: "the saved document of 1.0 refers to #/components/schemas/A, #/components/schemas/B, #/components/schemas/C and 2 more, which it does not have, so what changed there cannot be told: save the version again (snapshot) once the app's document of it is whole"
  })
})

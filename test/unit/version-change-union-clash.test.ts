import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type FieldInstruction } from '../../lib/index.js'
import { unionClash } from '../../lib/version-changes/union-clash.js'
import { rulesOf } from '../../lib/version-changes/version-change.js'

// A conversion follows every member of a union (anyOf, oneOf) without telling which one a value is: a field
// instruction about one member, where another has a field of a name it converts, is refused at start-up.

const Cat = Type.Object({ kind: Type.Literal('cat'), sound: Type.String() })
const Dog = Type.Object({ kind: Type.Literal('dog'), sound: Type.String(), chip: Type.Optional(Type.String()) })
const none = (): undefined => undefined
const rules = (...fields: FieldInstruction[]) => rulesOf(versionChange({ description: 'x', fields }))?.fields ?? []

t.test('which instructions clash with another member of a union, wherever the union is', async t => {
  const renamed = rules({ schema: Cat, field: 'sound', renamedFrom: 'purr' })
  const Person = Type.Object({ name: Type.String() })
  const Vet = Type.Object({ name: Type.String(), clinic: Type.String() })
  const ownerRenamed = rules({ schema: Person, field: 'name', renamedFrom: 'fullName' })
  const Chain: Record<string, unknown> & { properties: Record<string, unknown> } = { type: 'object', properties: { owner: Person } }
  Chain.properties.next = Chain
  const rows: Array<[string, unknown, ReturnType<typeof rules>, unknown]> = [
    ['a renamed field the other member has', Type.Union([Cat, Dog]), renamed, { keyword: 'anyOf', name: 'sound' }],
    ['its older name', { oneOf: [Cat, Type.Object({ purr: Type.String() })] }, renamed, { keyword: 'oneOf', name: 'purr' }],
    ['an added field', Type.Object({ pets: Type.Array(Type.Union([Cat, Dog])) }), rules({ schema: Cat, field: 'chip', added: true }), { keyword: 'anyOf', name: 'chip' }],
    ['a removed field', Type.Object({ pet: Type.Optional(Type.Union([Cat, Dog])) }), rules({ schema: Cat, field: 'chip', removed: { schema: { type: 'string' } } }), { keyword: 'anyOf', name: 'chip' }],
    ['behind a $ref', { definitions: { pet: { anyOf: [Cat, Dog] } }, type: 'object', properties: { pet: { $ref: '#/definitions/pet' } } }, renamed, { keyword: 'anyOf', name: 'sound' }],
    ['beside a member that is no object (a boolean schema)', { anyOf: [true, Cat, Dog] }, renamed, { keyword: 'anyOf', name: 'sound' }],
    ['no other member has the names', Type.Union([Cat, Type.Null(), Type.Object({ bark: Type.String() })]), renamed, null],
    ['the change names both members', Type.Union([Cat, Dog]), rules({ schema: Cat, field: 'sound', renamedFrom: 'purr' }, { schema: Dog, field: 'sound', renamedFrom: 'purr' }), null],
    ['a changed field converts no data', Type.Union([Cat, Dog]), rules({ schema: Cat, field: 'sound', changed: { required: false } }), null],
    ['allOf: every member is the value', Type.Intersect([Cat, Type.Object({ sound: Type.String() })]), renamed, null],
    ['a union of members the change does not name', Type.Union([Dog, Type.Null()]), renamed, null],
    // Deeper: a member's owner is the schema the change is about; the other member's owner, another with the name.
    ['a schema inside a member, where the other member has one of the name at the same place', Type.Union([Type.Object({ owner: Person }), Type.Object({ owner: Vet })]), ownerRenamed, { keyword: 'anyOf', name: 'name' }],
    ['in their items', Type.Union([Type.Object({ owners: Type.Array(Person) }), Type.Object({ owners: Type.Array(Vet) })]), ownerRenamed, { keyword: 'anyOf', name: 'name' }],
    ['at another place: no value of the other member is reached', Type.Union([Type.Object({ owner: Person }), Type.Object({ vet: Vet })]), ownerRenamed, null],
    ['the same schema at the same place in both', Type.Union([Type.Object({ owner: Person }), Type.Object({ owner: Person, chip: Type.String() })]), ownerRenamed, null],
    ['a schema that takes any value at that place', { anyOf: [Type.Object({ owner: Person }), { type: 'object', properties: { owner: true } }] }, ownerRenamed, null],
    ['a member that holds itself', { anyOf: [Chain, Type.Object({ owner: Vet })] }, ownerRenamed, { keyword: 'anyOf', name: 'name' }]
  ]
  for (const [what, schema, given, expected] of rows) {
    const clash = unionClash(schema, given, none)
    t.same(clash === null ? null : { keyword: clash.keyword, name: clash.name }, expected, what)
  }
  const Loop: Record<string, unknown> = { type: 'object' }
  Loop.properties = { self: Loop, pet: Type.Union([Cat, Dog]) }
  t.match(unionClash(Loop, renamed, none), { name: 'sound' }, 'a schema that holds itself')
  t.equal(unionClash(true, renamed, none), null)
})

t.test('a route whose union such a change changes fails at start-up, naming the route, the change and the field', async t => {
  for (const [method, schema] of [['GET', { response: { 200: Type.Union([Cat, Dog]) } }], ['POST', { body: Type.Object({ pets: Type.Array(Type.Union([Cat, Dog])) }) }]] as const) {
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: "A cat's 'sound' (it was 'purr').", fields: [{ schema: Cat, field: 'sound', renamedFrom: 'purr' }] })] }, { version: '1.0' }] })
    t.throws(() => app.route({ method, url: '/pets', versionChanges: true, schema, handler: async () => 'ok' }), {
      code: 'FST_API_VERSIONING_INVALID_DECLARATION',
      message: new RegExp(`route ${method} /pets: the change of 2\\.0, fields\\[0\\], changes a member of anyOf in its (response 200|body) whose other member has a field "sound" too; .* convert the union with request and response migrations by its schema \\(they see the value`)
    }, method)
  }
})

t.test('convertToApiVersion of such a union is refused, saying why', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: "A cat's 'sound' (it was 'purr').", fields: [{ schema: Cat, field: 'sound', renamedFrom: 'purr' }] })] }, { version: '1.0' }] })
  await app.ready()
  await t.rejects(app.convertToApiVersion({ schema: Type.Union([Cat, Dog]), value: { kind: 'dog', sound: 'woof' }, version: '1.0' }), { message: /the change of 2\.0, fields\[0\], changes a member of anyOf in this schema whose other member has a field "sound" too/ })
  t.same(await app.convertToApiVersion({ schema: Cat, value: { kind: 'cat', sound: 'meow' }, version: '1.0' }), { kind: 'cat', purr: 'meow' })
})

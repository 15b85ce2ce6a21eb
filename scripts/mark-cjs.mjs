// dist/cjs holds CommonJS under a "type": "module" package: say so to Node. And as Fastify plugins do, the
// CommonJS entry exports the plugin itself, with `.default` and the named exports on it; its types say the same
// (`export =` of the plugin merged with a namespace of the named exports, as @fastify/cors's do), so that
// `import plugin = require('fastify-api-versioning')` is the plugin in TypeScript too. The types TypeScript wrote
// for an entry move to `<entry>.exports.d.ts`, which the new ones import (and with it the `fastify` augmentations).
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'

const ts = createRequire(import.meta.url)('typescript')
const ALIAS = 'entry$'
writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n')
const written = []
for (const entry of ['index', 'openapi/index']) {
  appendFileSync(new URL(`../dist/cjs/${entry}.js`, import.meta.url),
    'module.exports = Object.defineProperties(exports.default, Object.getOwnPropertyDescriptors(exports));\n')
  const types = fileURLToPath(new URL(`../dist/cjs/${entry}.d.ts`, import.meta.url))
  const moved = types.replace(/\.d\.ts$/, '.exports.d.ts')
  const source = ts.createSourceFile(types, readFileSync(types, 'utf8'), ts.ScriptTarget.Latest, true)
  writeFileSync(moved, withoutTypeOnlyExports(source))
  rmSync(types)
  const { plugin, doc } = defaultExport(source, entry)
  const program = ts.createProgram([moved], { noEmit: true, types: [] })
  const checker = program.getTypeChecker()
  const names = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(moved)))
    .map(symbol => symbol.name).filter(name => name !== 'default').sort()
  if (names.includes(ALIAS)) throw new Error(`${entry}: an export is named ${ALIAS}, the name this script imports the types as`)
  writeFileSync(types, [
    `import * as ${ALIAS} from './${basename(moved, '.d.ts')}.js';`,
    doc,
    `declare function ${plugin}(...args: Parameters<typeof ${ALIAS}.default>): ReturnType<typeof ${ALIAS}.default>;`,
    `declare namespace ${plugin} {`,
    ...names.map(name => `    export import ${name} = ${ALIAS}.${name};`),
    `    export { ${plugin} as default };`,
    '}',
    `export = ${plugin};`,
    ''
  ].filter(line => line !== '').join('\n') + '\n')
  written.push(types)
}

// What the new declarations say must type-check, against the installed fastify, as a consumer's compiler reads them.
const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram(written, { noEmit: true, strict: true, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }))
if (diagnostics.length > 0) throw new Error(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: f => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' }))

// An import alias cannot name what `export type` exported; in declarations, a plain export is the same.
function withoutTypeOnlyExports (source) {
  const printer = ts.createPrinter()
  let text = source.text
  const lists = source.statements.filter(s => ts.isExportDeclaration(s) && s.exportClause !== undefined && ts.isNamedExports(s.exportClause) &&
    (s.isTypeOnly || s.exportClause.elements.some(e => e.isTypeOnly)))
  for (const s of lists.reverse()) {
    const elements = s.exportClause.elements.map(e => ts.factory.updateExportSpecifier(e, false, e.propertyName, e.name))
    const plain = ts.factory.updateExportDeclaration(s, s.modifiers, false, ts.factory.updateNamedExports(s.exportClause, elements), s.moduleSpecifier, s.attributes)
    text = text.slice(0, s.getStart()) + printer.printNode(ts.EmitHint.Unspecified, plain, source) + text.slice(s.getEnd())
  }
  return text
}

// The name of the plugin (`export default <name>;`, also a named export) and the doc comment of its declaration.
function defaultExport (source, entry) {
  const assignment = source.statements.find(s => ts.isExportAssignment(s) && !s.isExportEquals && ts.isIdentifier(s.expression))
  if (assignment === undefined) throw new Error(`${entry}: its types have no \`export default <name>;\``)
  const plugin = assignment.expression.text
  const declaration = source.statements.find(s => ts.isVariableStatement(s) && s.declarationList.declarations.some(d => d.name.text === plugin))
  const doc = declaration === undefined ? '' : ts.getJSDocCommentsAndTags(declaration.declarationList.declarations[0]).map(c => c.getText()).join('\n')
  return { plugin, doc }
}

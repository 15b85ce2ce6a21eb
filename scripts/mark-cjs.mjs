// dist/cjs holds CommonJS under a "type": "module" package: say so to Node. As Fastify plugins do, the CommonJS
// entry exports the plugin itself, with `.default` and the named exports on it (scripts/bundle.mjs); its types say the same
// (`export =` of the plugin merged with a namespace of the named exports, as @fastify/cors's do), so that
// `import plugin = require('fastify-api-versioning')` is the plugin in TypeScript too. The types TypeScript wrote
// for an entry move to `<entry>.exports.d.ts`, which the new ones import (and with it the `fastify` augmentations).
// The package layer type-checks what this writes as a consumer's compiler reads it (test/package/package.test.ts).
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { removeEmptyFolders } from './remove-empty-folders.mjs'

const ts = createRequire(import.meta.url)('typescript')
const ALIAS = 'entry$'
const ENTRIES = [['index', 'apiVersioning'], ['openapi/index', 'apiVersioningOpenApi']]
const esm = fileURLToPath(new URL('../dist/esm/', import.meta.url))
const cjs = fileURLToPath(new URL('../dist/cjs/', import.meta.url))
// TypeScript writes the same declaration files for both builds, and both read one copy: the modules' declaration
// files move to the CommonJS build, which both builds' types import (an ES module's types may import CommonJS
// ones; the reverse fails under `moduleResolution: node16`), so that the tarball holds them once. The entries stay,
// and so do the modules that import a package with types of its own for each module system (TypeBox's: an ES
// module's TObject is not a CommonJS one's, test/package/typebox-setups.test.ts); Fastify's are one.
cpSync(esm, cjs, { recursive: true, filter: path => !path.endsWith('.js') })
writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n')
const importsOf = file => ts.preProcessFile(readFileSync(file, 'utf8')).importedFiles.map(({ fileName }) => fileName)
const staying = new Set(readdirSync(esm, { recursive: true }).filter(name => name.endsWith('.d.ts') &&
  (ENTRIES.some(([entry]) => name === `${entry}.d.ts`) || importsOf(join(esm, name)).some(name => !/^(\.|node:|fastify$)/.test(name)))))
for (const name of readdirSync(esm, { recursive: true })) {
  if (name.endsWith('.d.ts') && !staying.has(name)) rmSync(join(esm, name))
}
for (const name of staying) {
  const types = join(esm, name)
  const into = dirname(types)
  writeFileSync(types, readFileSync(types, 'utf8').replace(/(from |import\()'(\.\.?\/[^']*)'/g, (match, before, specifier) => {
    const target = relative(esm, join(into, specifier))
    return staying.has(target.replace(/\.js$/, '.d.ts')) ? match : `${before}'${relative(into, join(cjs, target))}'`
  }))
}
removeEmptyFolders(esm)
removeEmptyFolders(cjs)
// Each entry and the name of its plugin, as its source declares it.
for (const [entry, plugin] of ENTRIES) {
  const types = fileURLToPath(new URL(`../dist/cjs/${entry}.d.ts`, import.meta.url))
  const moved = types.replace(/\.d\.ts$/, '.exports.d.ts')
  const source = ts.createSourceFile(types, readFileSync(types, 'utf8'), ts.ScriptTarget.Latest, true)
  writeFileSync(moved, withoutTypeOnlyExports(source))
  rmSync(types)
  const doc = docComment(source, plugin)
  const program = ts.createProgram([moved], { noEmit: true, types: [] })
  const checker = program.getTypeChecker()
  const names = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(moved)))
    .map(symbol => symbol.name).filter(name => name !== 'default').sort()
  writeFileSync(types, [
    `import * as ${ALIAS} from './${basename(moved, '.d.ts')}.js';`,
    doc,
    `declare function ${plugin}(...args: Parameters<typeof ${ALIAS}.default>): ReturnType<typeof ${ALIAS}.default>;`,
    `declare namespace ${plugin} {`,
    ...names.map(name => `    export import ${name} = ${ALIAS}.${name};`),
    `    export { ${plugin} as default };`,
    '}',
    `export = ${plugin};`
  ].join('\n') + '\n')
}

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

// The doc comment of the plugin's declaration (`export declare const <plugin>`), for the function that stands for it.
function docComment (source, plugin) {
  const declaration = source.statements.find(s => ts.isVariableStatement(s) && s.declarationList.declarations.some(d => d.name.text === plugin))
  return ts.getJSDocCommentsAndTags(declaration.declarationList.declarations[0]).map(c => c.getText()).join('\n')
}

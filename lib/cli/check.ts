import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ApiVersion } from '../api-version.js'
import { changeLines } from '../changes/changes-description.js'
import { code } from '../changes/code.js'
import type { ApiVersionDocument, OpenApiDocument } from '../changes/document.js'
import type { ReleaseGate } from '../changes/release-gate.js'
import { NOT_JUDGED } from '../changes/unjudged.js'
import { isObject } from '../util/is-object.js'
import { messageOf } from '../util/server-error.js'
import { Failure } from './failure.js'
import type { Io } from './io.js'
import { savedVersions, type SavedVersion } from './saved-versions.js'

/** What the check found for one saved version: its changes, breaking ones apart. */
interface Finding {
  readonly breaking: string[]
  readonly other: string[]
}

/**
 * Compares each saved version's document with the one the app serves for that version now, as
 * `apiVersionChanges()` compares two versions, and says what changed: 1 when a saved version changed in a way
 * that breaks its clients, or is gone without an enforced sunset that retired it, or (`failOnUnjudged`) changed
 * where no rule judges; else 0. A version the app serves that is not saved is new: nothing to hold it to.
 */
export async function check (gate: ReleaseGate, given: string, io: Io, failOnUnjudged = false): Promise<number> {
  const dir = resolve(io.cwd, given)
  const saved = await savedVersions(dir, given)
  if (saved.length === 0) {
    throw new Failure(`--dir ${given} has no saved version (<version>.json): run snapshot when you release a version, then check`)
  }
  const current = new Map(gate.documents().map(entry => [ApiVersion.parse(entry.version).key, entry]))
  const broken: string[] = []
  // The versions with changes no rule judges.
  const unjudgedIn: string[] = []
  let unjudged = 0
  for (const entry of saved) {
    const document = await readSaved(dir, given, entry)
    const now = current.get(entry.key)
    current.delete(entry.key)
    const finding = now === undefined ? gone(gate, entry.version) : compared(gate, given, entry, document, now)
    if (finding.breaking.length > 0) broken.push(entry.version)
    const count = finding.other.filter(line => line.includes(`${NOT_JUDGED}:`)).length
    if (count > 0) unjudgedIn.push(entry.version)
    unjudged += count
    io.stdout.write(report(entry.version, finding))
  }
  for (const { version } of current.values()) io.stdout.write(`${version}: new, not saved (snapshot saves it when you release it)\n`)
  const failing = failOnUnjudged && broken.length === 0 && unjudged > 0
  io.stdout.write('\n' + (failing ? unjudgedSummary(unjudgedIn) : summary(saved.length, broken, unjudged)))
  return broken.length > 0 || failing ? 1 : 0
}

async function readSaved (dir: string, given: string, { file }: SavedVersion): Promise<OpenApiDocument> {
  let document: unknown
  try {
    document = JSON.parse(await readFile(join(dir, file), 'utf8'))
  } catch (error) {
    throw new Failure(`--dir ${given}: ${file} cannot be read as JSON (${messageOf(error)}): restore it as snapshot wrote it, from version control`)
  }
  const wrong = notOpenApi(document)
  if (wrong !== null) {
    throw new Failure(`--dir ${given}: ${file} is no OpenAPI 3.0 or 3.1 document (${wrong}): restore it as snapshot wrote it, from version control`)
  }
  return document as unknown as OpenApiDocument
}

// What snapshot writes, and what the comparison reads: anything else (a placeholder, a Swagger 2.0 file) would be
// compared as a document of no operations, where all the app serves is "added", and pass.
function notOpenApi (document: unknown): string | null {
  if (!isObject(document)) return `it is ${Array.isArray(document) ? 'an array' : JSON.stringify(document)}, not an object`
  const { openapi, swagger } = document
  if (swagger !== undefined && openapi === undefined) return `it is Swagger ${JSON.stringify(swagger)}`
  if (typeof openapi !== 'string' || !/^3\.[01]\.\d/.test(openapi)) return openapi === undefined ? 'it has no "openapi" field' : `its "openapi" is ${JSON.stringify(openapi)}`
  if (!isObject(document.info)) return 'it has no "info" object'
  return isObject(document.paths) ? null : 'it has no "paths" object'
}

// A comparison that cannot tell what changed (a schema too deep to follow) proves nothing: the file is named.
function compared (gate: ReleaseGate, given: string, { file, version }: SavedVersion, document: OpenApiDocument, now: ApiVersionDocument): Finding {
  try {
    const changes = gate.compare({ version, deprecated: false, document }, now)
    const { breaking, other } = changeLines(changes)
    // Not in the documents' changes, which clients read: a hidden endpoint is internal. The gate's reader is not.
    return { breaking, other: [...other, ...changes.hidden.map(operation => `${code(operation)} hidden: still served, in no document from this version on`)] }
  } catch (error) {
    throw new Failure(`--dir ${given}: ${file} cannot be compared with the app's ${version}: ${messageOf(error)}`)
  }
}

// A version the app no longer serves: its clients get errors, unless its enforced sunset said so beforehand.
function gone (gate: ReleaseGate, version: string): Finding {
  const date = gate.retiredOn(version)
  if (date !== null) return { breaking: [], other: [`retired by its enforced sunset on ${date}`] }
  return {
    breaking: [`no longer served, and no enforced sunset retired it: serve it again, or retire it with policies['${version}'].sunset ({ date, enforce: true }) once that date has passed`],
    other: []
  }
}

function report (version: string, { breaking, other }: Finding): string {
  if (breaking.length + other.length === 0) return `${version}: no change\n`
  const lines = [`${version}: ${count(breaking.length, 'breaking change')}, ${count(other.length, 'other change')}`]
  if (breaking.length > 0) lines.push('  breaking:', ...breaking.map(line => `  - ${line}`))
  if (other.length > 0) lines.push('  other:', ...other.map(line => `  - ${line}`))
  return lines.join('\n') + '\n'
}

function summary (checked: number, broken: readonly string[], unjudged: number): string {
  const review = unjudged === 0 ? '' : ` Not judged: ${count(unjudged, 'change')} (read above).`
  if (broken.length === 0) return `No breaking change in ${count(checked, 'saved version')}.${review}\n`
  return `Breaking changes in ${broken.join(', ')}: a released version must not break its clients. Undo them, or make them in a new version.${review}\n`
}

function unjudgedSummary (versions: readonly string[]): string {
  return `Changes no rule judges in ${versions.join(', ')} (read above), and --fail-on-unjudged: check that they break no client, then accept them by saving those versions again (snapshot); else undo them, or make them in a new version.\n`
}

function count (n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

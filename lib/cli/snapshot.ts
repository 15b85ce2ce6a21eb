import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ReleaseGate } from '../openapi/release-gate.js'
import { messageOf } from '../problems/server-error.js'
import { Failure } from './failure.js'
import type { Io } from './io.js'
import { savedVersions } from './saved-versions.js'

/**
 * Writes each version's document, as the app serves it now, to `<dir>/<version>.json` (pretty JSON: the same
 * text for the same document), creating the folder. The saved files of versions the app no longer serves are
 * left as they are: `check` holds the app to them until their versions are retired.
 */
export async function snapshot (gate: ReleaseGate, given: string, io: Io): Promise<number> {
  const dir = resolve(io.cwd, given)
  const documents = gate.documents()
  try {
    await mkdir(dir, { recursive: true })
    for (const { version, document } of documents) await writeFile(join(dir, `${version}.json`), JSON.stringify(document, null, 2) + '\n')
  } catch (error) {
    throw new Failure(`--dir ${given}: cannot write the documents there: ${messageOf(error)}`)
  }
  const written = documents.map(({ version }) => `${version}.json`)
  io.stdout.write(`Saved ${written.length} version${written.length === 1 ? '' : 's'} in ${given}: ${written.join(', ')}\n`)
  const left = (await savedVersions(dir, given)).map(({ file }) => file).filter(file => !written.includes(file))
  if (left.length > 0) io.stdout.write(`Left as they were: ${left.join(', ')} (versions the app no longer serves; check holds the app to them)\n`)
  return 0
}

import { constants } from 'node:fs'
import { lstat, mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ApiVersion } from '../api-version.js'
import type { ReleaseGate } from '../changes/release-gate.js'
import { messageOf } from '../util/server-error.js'
import { Failure } from './failure.js'
import type { Io } from './io.js'
import { savedVersions } from './saved-versions.js'

// A link put in place between the check and the write fails the write instead of being followed (ELOOP). Windows
// has no O_NOFOLLOW (undefined, which `|` reads as 0): there the check alone refuses links.
const NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW

/**
 * Writes each version's document, as the app serves it now, to `<dir>/<version>.json` (pretty JSON: the same
 * text for the same document), creating the folder. The saved files of versions the app no longer serves are
 * left as they are: `check` holds the app to them until their versions are retired. Nothing is written where a
 * file would be a second one of its version, or where its name is a symbolic link (writing would change the file
 * it points to, outside the folder): both are refused before anything is written, as is an app that serves no
 * version (`app`, as given): a release of nothing is no release to save.
 */
export async function snapshot (gate: ReleaseGate, app: string, given: string, io: Io): Promise<number> {
  const dir = resolve(io.cwd, given)
  const documents = gate.documents()
  if (documents.length === 0) {
    throw new Failure(`--app ${app} serves no version of its API (every version retired by an enforced sunset, or no route declares one): nothing to snapshot; the files of --dir ${given} are left as they are, and check holds the app to them`)
  }
  try {
    await mkdir(dir, { recursive: true })
  } catch (error) {
    throw new Failure(`--dir ${given}: cannot write the documents there: ${messageOf(error)}`)
  }
  const saved = await savedVersions(dir, given)
  const written = documents.map(({ version }) => `${version}.json`)
  for (const [i, { version }] of documents.entries()) {
    const key = ApiVersion.parse(version).key
    const other = saved.find(entry => entry.key === key && entry.file !== written[i])
    if (other !== undefined) {
      throw new Failure(`--dir ${given}: ${other.file} is version ${version}, which snapshot writes as ${written[i]}: remove ${other.file} (or rename it ${written[i]}), then run snapshot again`)
    }
    if ((await lstat(join(dir, written[i])).catch(() => null))?.isSymbolicLink() === true) {
      throw new Failure(`--dir ${given}: ${written[i]} is a symbolic link, and snapshot never writes through one (it would change the file it points to): replace it with a file of its own, or remove it, then run snapshot again`)
    }
  }
  try {
    for (const [i, { document }] of documents.entries()) await writeFile(join(dir, written[i]), JSON.stringify(document, null, 2) + '\n', { flag: NO_FOLLOW })
  } catch (error) {
    throw new Failure(`--dir ${given}: cannot write the documents there: ${messageOf(error)}`)
  }
  io.stdout.write(`Saved ${written.length} version${written.length === 1 ? '' : 's'} in ${given}: ${written.join(', ')}\n`)
  const left = saved.map(({ file }) => file).filter(file => !written.includes(file))
  if (left.length > 0) io.stdout.write(`Left as they were: ${left.join(', ')} (versions the app no longer serves; check holds the app to them)\n`)
  return 0
}

import { readdir } from 'node:fs/promises'
import { ApiVersion } from '../api-version.js'
import { messageOf } from '../util/server-error.js'
import { Failure } from './failure.js'

/** A saved document: its file, and the version its name says. */
export interface SavedVersion {
  readonly file: string
  readonly version: string
  readonly key: string
}

/**
 * The saved documents of a folder: its files named `<version>.json`, in version order. Other files are not the
 * gate's, and are left out. Two files of one version (`1.0.json` and `1.json`) are refused: which one holds it?
 */
export async function savedVersions (dir: string, given: string): Promise<SavedVersion[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    throw new Failure(`--dir ${given}: cannot read the folder: ${messageOf(error)}`)
  }
  const found: Array<SavedVersion & { parsed: ApiVersion }> = []
  for (const file of names) {
    const version = file.endsWith('.json') ? file.slice(0, -5) : ''
    const parsed = ApiVersion.tryParse(version)
    if (parsed !== null) found.push({ file, version, key: parsed.key, parsed })
  }
  found.sort((a, b) => a.parsed.compareTo(b.parsed) || a.file.localeCompare(b.file))
  for (let i = 1; i < found.length; i++) {
    const [first, second] = [found[i - 1], found[i]]
    if (first.key === second.key) {
      throw new Failure(`--dir ${given}: ${first.file} and ${second.file} are both version ${first.version}: keep the one snapshot wrote (the version as your routes name it) and remove the other`)
    }
  }
  return found.map(({ file, version, key }) => ({ file, version, key }))
}

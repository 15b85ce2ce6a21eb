import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Removes the folders under `dir` left with no file in them, the deepest first (the build's scripts remove files). */
export function removeEmptyFolders (dir) {
  for (const name of readdirSync(dir, { recursive: true }).sort().reverse()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory() && readdirSync(path).length === 0) rmSync(path, { recursive: true })
  }
}

import { coded } from '../errors.js'

/**
 * Imports an optional peer dependency when a feature that needs it starts, not when an entry is imported, so
 * that an app without the feature needs no such package. Only that package missing becomes a start-up error
 * that says what to install (`missing` says who needs it); a package it needs that is missing, or one that fails
 * to load, fails as it does.
 */
export async function importPeer<T> (name: string, missing: string): Promise<T> {
  try {
    return await import(name) as T
  } catch (error) {
    // Node's words, in ESM and CommonJS (some loaders drop the error's code).
    if (/^Cannot find (?:package|module) '([^']+)'/.exec((error as Error).message)?.[1] === name) {
      throw coded(new Error(`${missing}, but it is not installed; install it: npm install ${name}`, { cause: error }), 'FST_API_VERSIONING_MISSING_PEER')
    }
    throw error
  }
}

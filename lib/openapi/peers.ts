/**
 * Loads an optional peer dependency when the plugin starts, not when the entry is imported, so that an app
 * that never documents needs neither package; a missing one fails start-up saying what to install.
 */
export async function loadPeer<T> (name: string, neededFor: string): Promise<T> {
  let loaded: { default: T }
  try {
    loaded = await import(name)
  } catch (error) {
    // Only this package missing (Node's words, in ESM and CommonJS; some loaders drop the error's code): a
    // package it needs that is missing, or one that fails to load, is another story.
    if (/^Cannot find (?:package|module) '([^']+)'/.exec((error as Error).message)?.[1] === name) {
      throw new Error(`fastify-api-versioning/openapi needs the package ${name} for ${neededFor}, but it is not installed; install it: npm install ${name}`, { cause: error })
    }
    throw error
  }
  return loaded.default
}

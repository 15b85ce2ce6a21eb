// Run by `npm run test:package` before its files start (tap's `before`): packs the package once for all of
// them, so that none waits on another's pack.
import { pack } from './packed.js'

pack()

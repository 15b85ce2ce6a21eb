// TypeScript drops comments on imports from the declaration files it writes: put back, in both builds, the one
// that lets an app without the optional peer @sinclair/typebox compile (lib/problems/problem-schema.ts says why;
// test/package/typebox-setups.test.ts compiles such an app).
import { readFileSync, writeFileSync } from 'node:fs'

for (const build of ['esm', 'cjs']) {
  const file = new URL(`../dist/${build}/problems/problem-schema.d.ts`, import.meta.url)
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^import type .* from '@sinclair\/typebox';$/m,
    '// @ts-ignore: an optional peer, for these types only (missing, they are `any`)\n$&'))
}

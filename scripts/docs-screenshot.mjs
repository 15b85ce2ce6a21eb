// docs/docs-page.png, the picture of the docs page in docs/openapi.md, taken from the example service:
// `npm run docs:screenshot` builds, starts example/server.mjs on a free port, opens its docs page at 0.9
// (deprecated) in Chromium (Debian's, or CHROMIUM_PATH; playwright-core downloads no browser), shows one
// operation's responses, and writes the page. The browser test takes the same picture with takeScreenshot, so
// what this draws is checked on every run of the package layer.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const SCREENSHOT = fileURLToPath(new URL('../docs/docs-page.png', import.meta.url))

/** Writes the picture of the docs page at `base` (the example service's URL) to `path`, with `browser`. */
export async function takeScreenshot (browser, base, path) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } })
  page.setDefaultTimeout(120_000)
  await page.goto(`${base}/docs/?urls.primaryName=${encodeURIComponent('0.9 (deprecated)')}`)
  const items = page.locator('#operations-orders-listOrderItems')
  await items.locator('.opblock-summary').click()
  await items.locator('.responses-wrapper').waitFor()
  await page.screenshot({ path, fullPage: true })
  await page.close()
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { chromium } = await import('playwright-core')
  const server = spawn(process.execPath, [fileURLToPath(new URL('../example/server.mjs', import.meta.url))], {
    env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit']
  })
  try {
    const base = await new Promise((resolve, reject) => {
      let output = ''
      server.stdout.on('data', chunk => {
        output += chunk
        const url = /^Orders API on (http:\/\/\S+)/m.exec(output)?.[1]
        if (url !== undefined) resolve(url)
      })
      server.on('exit', code => reject(new Error(`the example service exited (${code}) before it listened:\n${output}`)))
    })
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
    try {
      await takeScreenshot(browser, base, SCREENSHOT)
    } finally {
      await browser.close()
    }
    console.log(`wrote ${SCREENSHOT}`)
  } finally {
    server.kill()
  }
}

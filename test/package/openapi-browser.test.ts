import t from 'tap'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// @ts-expect-error: a script of the repository, without types
import { takeScreenshot } from '../../scripts/docs-screenshot.mjs'
import { startExample } from './example-server.js'

// The docs page in a real browser: Debian's Chromium, driven by playwright-core (which downloads nothing).
// Skipped when there is no browser, unless REQUIRE_BROWSER is set: then a missing browser fails (as in .ci/run).
// It also takes the picture of docs/openapi.md as `npm run docs:screenshot` does (scripts/docs-screenshot.mjs).
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const required = process.env.REQUIRE_BROWSER !== undefined && process.env.REQUIRE_BROWSER !== '' && process.env.REQUIRE_BROWSER !== '0'

if (!existsSync(executablePath)) {
  const why = `no Chromium at ${executablePath}: apt-get install -y --no-install-recommends chromium fonts-liberation, or set CHROMIUM_PATH`
  if (required) {
    t.fail(`REQUIRE_BROWSER is set, but there is ${why}`)
  } else {
    console.log(`SKIPPED the browser test: ${why} (REQUIRE_BROWSER=1 makes this a failure)`)
    t.skip(`the docs page in Chromium (${why})`, async () => {})
  }
} else {
  t.test('the docs page of the example service in Chromium: picker, versions, deprecated operations, Try it out', async t => {
    const { chromium } = await import('playwright-core')
    const { base } = await startExample(stop => t.teardown(stop))
    const browser = await chromium.launch({ executablePath })
    t.teardown(() => browser.close())
    const page = await browser.newPage({ viewport: { width: 1200, height: 700 } })
    // Each step waits as long as a busy host may need.
    page.setDefaultTimeout(120_000)
    const elsewhere: string[] = []
    const errors: string[] = []
    page.on('request', request => { if (!request.url().startsWith(base)) elsewhere.push(request.url()) })
    page.on('pageerror', error => errors.push(error.message))

    await page.goto(`${base}/docs/`)
    const picker = page.locator('.topbar select')
    // The picker is filled once the page has fetched swagger-config.
    await picker.locator('option').first().waitFor({ state: 'attached' })
    t.same(await picker.locator('option').allInnerTexts(), ['2.0', '1.0', '0.9 (deprecated)'], 'every version in the picker, newest first')

    // The operations of the version shown, once its document has replaced the previous one.
    async function showing (version: string): Promise<Record<string, { deprecated: boolean, struck: boolean }>> {
      await page.waitForFunction(v => document.querySelector('.info')?.textContent?.includes(`/openapi/${v}.json`) === true &&
        document.querySelector('.opblock') !== null, version)
      return page.$$eval('.opblock', blocks => Object.fromEntries(blocks.map(block => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? ''
        // Swagger UI marks a deprecated operation's path with a class of its own.
        const path = block.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated') as HTMLElement
        return [`${method} ${path.textContent}`, {
          deprecated: block.classList.contains('opblock-deprecated'),
          struck: getComputedStyle(path).textDecorationLine.includes('line-through')
        }]
      })))
    }
    // Try it out on an operation, with what the page fills in: the status of its response.
    async function tryItOut (operationId: string): Promise<string> {
      const block = page.locator(`#operations-orders-${operationId}`)
      await block.locator('.opblock-summary').click()
      await block.locator('.try-out__btn').click()
      await block.locator('.execute').click()
      const status = block.locator('.live-responses-table .response .response-col_status').first()
      await status.waitFor()
      return status.innerText()
    }
    const live = { deprecated: false, struck: false }
    t.same(await showing('2.0'), { 'GET /orders': live, 'POST /orders': live, 'GET /api/v2.0/orders/{id}': live, 'GET /customers': live, 'GET /customers/{id}': live, 'GET /health': live }, 'starts at 2.0')
    // What changed since 1.0, from the document's description: markdown the page renders, breaking changes first.
    const changes = page.locator('.info .renderedMarkdown')
    t.equal(await changes.locator('h3').innerText(), 'Changes since 1.0')
    t.same(await changes.locator('strong').allInnerTexts(), ['Breaking changes', 'Other changes'])
    // What 2.0 says it changed (versionChanges), before what the documents show.
    t.same((await changes.locator('p').allInnerTexts()).slice(1, 2), ["Customers have a full name (it was 'name') and an email."])
    t.same(await changes.locator('li').allInnerTexts(), [
      'GET /customers: response 200: property [].fullName renamed from name', 'GET /customers/{id}: response 200: property fullName renamed from name',
      'GET /orders: response 200: type of [] changed from string to object', 'POST /orders added',
      'GET /customers: response 200: required property [].email added', 'GET /customers/{id}: response 200: required property email added'
    ])
    t.same((await changes.locator('li code').allInnerTexts()).slice(6, 11), ['GET /orders', '[]', 'string', 'object', 'POST /orders'])

    t.equal(await tryItOut('listOrders'), '200', 'Try it out: the version parameter is filled in')
    const list = page.locator('#operations-orders-listOrders')
    t.match(await list.locator('.request-url pre').innerText(), /\/orders\?api-version=2\.0$/)
    t.match(JSON.parse(await list.locator('.live-responses-table .response-col_description pre').first().innerText()), [{ id: 1, item: 'tea' }, { id: 2, item: 'scones' }])

    // The problem example of a status is a version problem the server answers with there, as it sends it, not
    // Swagger UI's samples from the keywords.
    const example = await list.locator('.responses-table .response[data-code="400"] .example').first().innerText()
    t.same(JSON.parse(example), { type: 'https://docs.api-versioning.org/problems#unspecified', title: 'Unspecified API version', status: 400, detail: 'An API version is required, but was not specified', code: 'ApiVersionUnspecified' })

    // Authorized once, on 2.0: the token is kept when the picker switches versions and back.
    await page.locator('.auth-wrapper .authorize').click()
    await page.locator('.auth-container input').fill('demo')
    await page.locator('.auth-btn-wrapper .authorize').click()
    await page.locator('.auth-btn-wrapper .btn-done').click()
    await picker.selectOption({ label: '1.0' })
    t.same(await showing('1.0'), { 'GET /orders': live, 'GET /api/v1.0/orders/{id}': live, 'GET /customers': live, 'GET /customers/{id}': live, 'GET /health': live })
    t.match(page.url(), /\?urls\.primaryName=1\.0$/)
    await picker.selectOption({ label: '2.0' })
    await showing('2.0')
    t.equal(await tryItOut('placeOrder'), '201', 'Try it out on an operation that needs the token')

    await picker.selectOption({ label: '0.9 (deprecated)' })
    t.same(await showing('0.9'), { 'GET /orders': { deprecated: true, struck: true }, 'GET /customers': { deprecated: true, struck: true }, 'GET /health': live }, '0.9\'s operations are struck through')
    t.match(await page.locator('.info').innerText(), /This API version is deprecated from 2026-01-01: see https:\/\/example\.com\/orders-api\/deprecations#v0\.9\. This API version is retired on 2027-06-30: see Moving from 0\.9 to 1\.0\./)
    // Its policy links are links.
    t.same(await page.locator('.info .renderedMarkdown a').evaluateAll(links => links.map(a => [a.textContent, (a as HTMLAnchorElement).href])), [
      ['https://example.com/orders-api/deprecations#v0.9', 'https://example.com/orders-api/deprecations#v0.9'],
      ['Moving from 0.9 to 1.0', 'https://example.com/orders-api/moving-to-1.0']
    ], 'the deprecation and sunset links are clickable')

    // The picture, on a fresh page (Swagger UI keeps a tried operation's response across definitions): a PNG as
    // wide as the page.
    const dir = mkdtempSync(join(tmpdir(), 'fav-screenshot-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    await takeScreenshot(browser, base, join(dir, 'docs-page.png'))
    const png = readFileSync(join(dir, 'docs-page.png'))
    t.same([png.subarray(1, 4).toString(), png.readUInt32BE(16)], ['PNG', 1200], 'the picture of the docs page')
    // The changelog, from the docs page's link: every version, newest first, breaking changes marked; its picture.
    const changelog = await browser.newPage({ viewport: { width: 1200, height: 700 } })
    changelog.setDefaultTimeout(120_000)
    changelog.on('request', request => { if (!request.url().startsWith(base)) elsewhere.push(request.url()) })
    changelog.on('pageerror', error => errors.push(error.message))
    await changelog.goto(`${base}/docs/`)
    await changelog.locator('.api-versioning-changelog').click()
    await changelog.waitForURL(`${base}/openapi/changelog`)
    t.same(await changelog.locator('h2').allInnerTexts(), ['2.0', '1.0', '0.9 deprecated'], 'the changelog, newest first')
    t.same(await changelog.locator('section#v2\\.0 > p').first().innerText(), "Customers have a full name (it was 'name') and an email.")
    const marked = changelog.locator('ul.breaking li').first()
    t.equal(await marked.evaluate(li => getComputedStyle(li, '::before').content), '"Breaking: "', 'a breaking change is marked')
    t.equal(await marked.innerText(), 'GET /customers: response 200: property [].fullName renamed from name')
    await changelog.screenshot({ path: join(dir, 'changelog.png'), fullPage: true })
    const picture = readFileSync(join(dir, 'changelog.png'))
    t.same([picture.subarray(1, 4).toString(), picture.readUInt32BE(16)], ['PNG', 1200], 'the picture of the changelog')
    t.same(elsewhere, [], 'every request stays on the app: no CDN')
    t.same(errors, [], 'no script errors')
  })
}

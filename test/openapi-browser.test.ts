import t from 'tap'
import { existsSync, mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { Type } from '@sinclair/typebox'
import { buildDocs } from './openapi-helpers.js'

// The docs page in a real browser: Debian's Chromium, driven by playwright-core (which downloads nothing).
// Skipped when there is no browser, unless REQUIRE_BROWSER is set: then a missing browser fails (as in .ci/run).
// UPDATE_SCREENSHOT=1 also writes docs/docs-page.png, the README's picture.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const required = process.env.REQUIRE_BROWSER !== undefined && process.env.REQUIRE_BROWSER !== '' && process.env.REQUIRE_BROWSER !== '0'
const screenshot = process.env.UPDATE_SCREENSHOT === '1' ? resolve(import.meta.dirname, '..', 'docs', 'docs-page.png') : null

if (!existsSync(executablePath)) {
  const why = `no Chromium at ${executablePath}: apt-get install -y --no-install-recommends chromium fonts-liberation, or set CHROMIUM_PATH`
  if (required) {
    t.fail(`REQUIRE_BROWSER is set, but there is ${why}`)
  } else {
    console.log(`SKIPPED the browser test: ${why} (REQUIRE_BROWSER=1 makes this a failure)`)
    t.skip(`the docs page in Chromium (${why})`, async () => {})
  }
} else {
  t.test('the docs page in Chromium: picker, versions, deprecated operations, Try it out', { timeout: 180_000 }, async t => {
    const { chromium } = await import('playwright-core')
    const app = await ordersApp()
    t.teardown(() => app.close())
    const base = await app.listen({ port: 0, host: '127.0.0.1' })
    const browser = await chromium.launch({ executablePath })
    t.teardown(() => browser.close())
    const page = await browser.newPage({ viewport: { width: 1200, height: 700 } })
    page.setDefaultTimeout(20_000)
    const elsewhere: string[] = []
    const errors: string[] = []
    page.on('request', request => { if (!request.url().startsWith(base)) elsewhere.push(request.url()) })
    page.on('pageerror', error => errors.push(error.message))

    await page.goto(`${base}/docs/`)
    const picker = page.locator('.topbar select')
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
    const live = { deprecated: false, struck: false }
    t.same(await showing('2.0'), { 'GET /orders': live, 'POST /orders': live, 'GET /api/v2.0/orders/{id}': live, 'GET /health': live }, 'starts at 2.0')

    const list = page.locator('#operations-orders-listOrders')
    await list.locator('.opblock-summary').click()
    await list.locator('.try-out__btn').click()
    await list.locator('.execute').click()
    const status = list.locator('.live-responses-table .response .response-col_status').first()
    await status.waitFor()
    t.equal(await status.innerText(), '200', 'Try it out: the version parameter is filled in')
    t.match(await list.locator('.request-url pre').innerText(), /\/orders\?api-version=2\.0$/)
    t.match(JSON.parse(await list.locator('.live-responses-table .response-col_description pre').first().innerText()), [{ id: 1, item: 'tea' }, { id: 2, item: 'scones' }])

    await picker.selectOption({ label: '1.0' })
    t.same(await showing('1.0'), { 'GET /orders': live, 'GET /api/v1.0/orders/{id}': live, 'GET /health': live })
    t.match(page.url(), /\?urls\.primaryName=1\.0$/)

    await picker.selectOption({ label: '0.9 (deprecated)' })
    t.same(await showing('0.9'), { 'GET /orders': { deprecated: true, struck: true }, 'GET /health': live }, '0.9\'s operation is struck through')
    t.match(await page.locator('.info').innerText(), /This API version is deprecated\./)

    if (screenshot !== null) {
      // A fresh page: Swagger UI keeps a tried operation's response across definitions, by method and path.
      const fresh = await browser.newPage({ viewport: { width: 1200, height: 700 } })
      await fresh.goto(`${base}/docs/?urls.primaryName=${encodeURIComponent('0.9 (deprecated)')}`)
      const items = fresh.locator('#operations-orders-listOrderItems')
      await items.locator('.opblock-summary').click()
      await items.locator('.responses-wrapper').waitFor()
      mkdirSync(resolve(screenshot, '..'), { recursive: true })
      await fresh.screenshot({ path: screenshot, fullPage: true })
    }
    t.same(elsewhere, [], 'every request stays on the app: no CDN')
    t.same(errors, [], 'no script errors')
  })
}

// The example service's API (example/server.mjs), built from the sources.
async function ordersApp () {
  const Order = Type.Object({ id: Type.Integer(), item: Type.String(), quantity: Type.Integer({ minimum: 1 }) }, { $id: 'Order', description: 'An order' })
  const orders = [{ id: 1, item: 'tea', quantity: 2 }, { id: 2, item: 'scones', quantity: 6 }]
  return buildDocs({ problemDetails: true, reportApiVersions: true }, {
    openapi: { openapi: '3.1.0', info: { title: 'Orders', description: 'An example of fastify-api-versioning: one document per API version.' }, tags: [{ name: 'orders' }, { name: 'health' }] },
    ui: { routePrefix: '/docs' }
  }, app => {
    app.get('/orders', { apiVersions: '1.0', deprecatedApiVersions: '0.9', schema: { tags: ['orders'], summary: 'The items ordered', operationId: 'listOrderItems', response: { 200: Type.Array(Type.String()) } } }, async () => orders.map(o => o.item))
    app.get('/orders', { apiVersions: '2.0', schema: { tags: ['orders'], summary: 'The orders', operationId: 'listOrders', response: { 200: Type.Array(Order) } } }, async () => orders)
    app.post('/orders', { apiVersions: '2.0', schema: { tags: ['orders'], summary: 'Place an order', operationId: 'placeOrder', body: Type.Object({ item: Type.String(), quantity: Type.Integer({ minimum: 1, default: 1 }) }), response: { 201: Order } } }, async () => orders[0])
    app.get('/api/v:apiVersion/orders/:id', { apiVersions: ['1.0', '2.0'], schema: { tags: ['orders'], summary: 'One order, the version in the path', operationId: 'getOrder', params: Type.Object({ apiVersion: Type.String(), id: Type.Integer() }), response: { 200: Order } } }, async () => orders[0])
    app.get('/health', { apiVersionNeutral: true, schema: { tags: ['health'], summary: 'Liveness, whatever the version', operationId: 'health', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => ({ status: 'ok' }))
  })
}

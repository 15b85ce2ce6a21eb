import type { FastifyBaseLogger } from 'fastify'
import { coded } from '../errors.js'
import { importPeer } from '../util/import-peer.js'
import { messageOf } from '../util/server-error.js'
import { warnAtStartUp } from '../util/start-up-warning.js'

/** The attributes of one series of `api_version.requests`. */
export type TelemetryAttributes = Record<string, string | boolean>

/** What an asynchronous instrument's callback is given at collection: where it reports the totals. */
export interface TelemetryObservableResult {
  observe (value: number, attributes?: TelemetryAttributes): void
}

/** An OpenTelemetry `ObservableCounter`, as far as the plugin uses it. */
export interface TelemetryObservableCounter {
  addCallback (callback: (result: TelemetryObservableResult) => void): void
}

/** An OpenTelemetry `MeterProvider` (from `@opentelemetry/api` or an SDK), as far as the plugin uses it. */
export interface TelemetryMeterProvider {
  getMeter (name: string): { createObservableCounter (name: string, options?: { unit?: string, description?: string }): TelemetryObservableCounter }
}

/** The `telemetry` option: `true` for the global meter provider of `@opentelemetry/api`, or one of the app's. */
export type TelemetryOption = boolean | { meterProvider?: TelemetryMeterProvider }

/** An active span, as far as the plugin uses it. */
interface TelemetrySpan {
  setAttribute (key: string, value: string): unknown
}

interface OpenTelemetryApi {
  metrics: { getMeterProvider (): TelemetryMeterProvider }
  trace: { getActiveSpan (): TelemetrySpan | undefined }
  createNoopMeter (): unknown
}

/** One series of `api_version.requests`: its attributes, and the requests counted so far. */
export interface Cell {
  readonly attributes: TelemetryAttributes
  count: number
}

/** What the plugin records requests with. */
export interface Telemetry {
  /**
   * The series of the attributes, made the first time they are counted (never per request: a route keeps the
   * cells it counts in). Made by `start`, once the app is ready.
   */
  cellOf: (attributes: TelemetryAttributes) => Cell
  /**
   * False where the meter is OpenTelemetry's no-op one, which would report nothing: versioned routes then skip
   * counting (the span still hears of the served version: tracing may be on without metrics). Set by `start`.
   */
  counts: boolean
  /** The span of the request's context, where an instrumentation made one. */
  readonly activeSpan: () => TelemetrySpan | undefined
  /**
   * Makes the counter, from the app's meter provider or the global one as it is once the app is ready: an SDK
   * started after the plugin's registration still counts. `warn` hears of a provider that counts nothing
   * (OpenTelemetry's no-op one: no SDK registered yet). A provider that fails fails start-up, naming it.
   */
  start (warn: (message: string) => void): void
}

export const METER_NAME = 'fastify-api-versioning'
export const COUNTER_NAME = 'api_version.requests'
const PEER = '@opentelemetry/api'

/** Checks the option at start-up; null when telemetry is off. */
export function resolveTelemetryOption (value: unknown, fail: (message: string) => never): { meterProvider: TelemetryMeterProvider | null } | null {
  if (value === undefined || value === false) return null
  if (value === true) return { meterProvider: null }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`telemetry must be a boolean or { meterProvider? } (got ${messageOf(value)})`)
  for (const key of Object.keys(value)) {
    if (key !== 'meterProvider') fail(`unknown telemetry option ${JSON.stringify(key)}`)
  }
  const provider = (value as { meterProvider?: unknown }).meterProvider
  if (provider === undefined) return { meterProvider: null }
  if (typeof (provider as { getMeter?: unknown } | null)?.getMeter !== 'function') fail('telemetry.meterProvider must be an OpenTelemetry MeterProvider (an object with getMeter)')
  return { meterProvider: provider as TelemetryMeterProvider }
}

/**
 * Where @opentelemetry/api (every 1.x) keeps what is registered globally. A span is active only through a context
 * manager registered there: with none (tracing off, or not started yet), none is, and looking costs a tenth of
 * asking the API, whose every call resolves its globals anew.
 */
const API_REGISTRY = Symbol.for('opentelemetry.js.api.1')

/**
 * Loads `@opentelemetry/api` (an optional peer: the plugin loads it only when telemetry is on); a missing package
 * fails start-up naming it. The counter is made by `start`.
 */
export async function createTelemetry (given: TelemetryMeterProvider | null): Promise<Telemetry> {
  // Node gives the named exports of its CommonJS build (cjs-module-lexer reads them), bundlers those of its ESM build.
  const api = await importPeer<OpenTelemetryApi>(PEER, `fastify-api-versioning: the telemetry option needs the package ${PEER}`)
  const telemetry: Telemetry = {
    // Set by start(), at ready: no request comes before.
    cellOf: undefined as never,
    counts: true,
    activeSpan: () => (globalThis as Record<symbol, { context?: unknown } | undefined>)[API_REGISTRY]?.context === undefined ? undefined : api.trace.getActiveSpan(),
    start (warn) {
      const provider = given ?? api.metrics.getMeterProvider()
      let meter: ReturnType<TelemetryMeterProvider['getMeter']>
      let cells: Map<string, Cell>
      try {
        meter = provider.getMeter(METER_NAME)
        cells = cellsOf(meter)
      } catch (error) {
        throw coded(new Error(`fastify-api-versioning: telemetry.meterProvider failed to give an observable counter: ${messageOf(error)}; give an OpenTelemetry MeterProvider, such as one of @opentelemetry/sdk-metrics`, { cause: error }), 'FST_API_VERSIONING_INVALID_OPTION')
      }
      // No SDK's provider registered as the global one (or the app's is a no-op): every count would be dropped.
      telemetry.counts = meter !== api.createNoopMeter()
      if (!telemetry.counts) {
        warn(given === null
          ? 'fastify-api-versioning: telemetry is on, but the global meter provider of @opentelemetry/api is its no-op one when the app is ready, so no request is counted: start the OpenTelemetry SDK (register its MeterProvider) before the app is ready, or give telemetry: { meterProvider }'
          : 'fastify-api-versioning: telemetry.meterProvider is the no-op one of @opentelemetry/api, so no request is counted: give the MeterProvider of an OpenTelemetry SDK')
      }
      telemetry.cellOf = function cellOf (attributes) {
        const key = JSON.stringify(Object.entries(attributes))
        let cell = cells.get(key)
        if (cell === undefined) cells.set(key, cell = { attributes, count: 0 })
        return cell
      }
    }
  }
  return telemetry
}

// The series of each meter, by their attributes (as JSON), on the global object: every app that counts through
// one meter, from any copy of the package, counts into the same cells, which one counter reports, as one
// synchronous counter did. Two counters of one name reporting the same attributes would not add up: at
// collection, the last one observed would be the value.
const kCells = Symbol.for('fastify-api-versioning.requestCells')
type CellsOfMeters = WeakMap<object, Map<string, Cell>>

/**
 * The cells of a meter, and, the first time, the counter that reports them: an asynchronous one, whose callback
 * reads the totals when the SDK collects, so that a request only adds one to a number. What the meter or its
 * counter throws, or lacks, is thrown.
 */
function cellsOf (meter: ReturnType<TelemetryMeterProvider['getMeter']>): Map<string, Cell> {
  const global = globalThis as { [kCells]?: CellsOfMeters }
  const meters = global[kCells] ??= new WeakMap()
  let cells = meters.get(meter)
  if (cells !== undefined) return cells
  if (typeof (meter as Partial<typeof meter> | null)?.createObservableCounter !== 'function') throw new Error('its meter has no createObservableCounter method')
  const counter = meter.createObservableCounter(COUNTER_NAME, {
    unit: '{request}',
    description: 'Requests of versioned and version-neutral routes, by the outcome of their API version'
  })
  if (typeof (counter as Partial<TelemetryObservableCounter> | null)?.addCallback !== 'function') throw new Error('its counter has no addCallback method')
  const all = cells = new Map()
  counter.addCallback(function observeApiVersionRequests (result) {
    for (const cell of all.values()) result.observe(cell.count, cell.attributes)
  })
  meters.set(meter, cells)
  return cells
}

/** The onReady hook that starts telemetry (see `Telemetry.start`): a provider that fails fails `ready()`. */
export function startsAtReady (telemetry: Telemetry, log: FastifyBaseLogger): (done: (error?: Error) => void) => void {
  return function apiVersioningTelemetry (done) {
    try {
      telemetry.start(message => warnAtStartUp(log, message))
    } catch (error) {
      return done(error as Error)
    }
    done()
  }
}

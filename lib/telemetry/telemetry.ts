import type { FastifyBaseLogger } from 'fastify'
import { coded } from '../errors.js'
import { importPeer } from '../util/import-peer.js'
import { messageOf } from '../problems/server-error.js'

/** The counter of an OpenTelemetry meter, as far as the plugin uses it. */
export interface TelemetryCounter {
  add (value: number, attributes?: Record<string, string | boolean>): void
}

/** An OpenTelemetry `MeterProvider` (from `@opentelemetry/api` or an SDK), as far as the plugin uses it. */
export interface TelemetryMeterProvider {
  getMeter (name: string): { createCounter (name: string, options?: { unit?: string, description?: string }): TelemetryCounter }
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

/** What the plugin records requests with. */
export interface Telemetry {
  /** The counter: made by `start`, once the app is ready. */
  counter: TelemetryCounter
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
 * Loads `@opentelemetry/api` (an optional peer: the plugin loads it only when telemetry is on); a missing package
 * fails start-up naming it. The counter is made by `start`.
 */
export async function createTelemetry (given: TelemetryMeterProvider | null): Promise<Telemetry> {
  // Node gives the named exports of its CommonJS build (cjs-module-lexer reads them), bundlers those of its ESM build.
  const api = await importPeer<OpenTelemetryApi>(PEER, `fastify-api-versioning: the telemetry option needs the package ${PEER}`)
  const telemetry: Telemetry = {
    // Set by start(), at ready: no request comes before.
    counter: undefined as never,
    activeSpan: () => api.trace.getActiveSpan(),
    start (warn) {
      const provider = given ?? api.metrics.getMeterProvider()
      let meter: ReturnType<TelemetryMeterProvider['getMeter']>
      let counter: TelemetryCounter
      try {
        meter = provider.getMeter(METER_NAME)
        counter = meter.createCounter(COUNTER_NAME, {
          unit: '{request}',
          description: 'Requests of versioned and version-neutral routes, by the outcome of their API version'
        })
      } catch (error) {
        throw coded(new Error(`fastify-api-versioning: telemetry.meterProvider failed to give a counter: ${messageOf(error)}; give an OpenTelemetry MeterProvider, such as one of @opentelemetry/sdk-metrics`, { cause: error }), 'FST_API_VERSIONING_INVALID_OPTION')
      }
      if (typeof (counter as Partial<TelemetryCounter> | null)?.add !== 'function') {
        throw coded(new Error('fastify-api-versioning: telemetry.meterProvider gave a counter without an add method; give an OpenTelemetry MeterProvider, such as one of @opentelemetry/sdk-metrics'), 'FST_API_VERSIONING_INVALID_OPTION')
      }
      // No SDK's provider registered as the global one (or the app's is a no-op): every count would be dropped.
      if (meter === api.createNoopMeter()) {
        warn(given === null
          ? 'fastify-api-versioning: telemetry is on, but the global meter provider of @opentelemetry/api is its no-op one when the app is ready, so no request is counted: start the OpenTelemetry SDK (register its MeterProvider) before the app is ready, or give telemetry: { meterProvider }'
          : 'fastify-api-versioning: telemetry.meterProvider is the no-op one of @opentelemetry/api, so no request is counted: give the MeterProvider of an OpenTelemetry SDK')
      }
      telemetry.counter = counter
    }
  }
  return telemetry
}

/** The onReady hook that starts telemetry (see `Telemetry.start`): a provider that fails fails `ready()`. */
export function startsAtReady (telemetry: Telemetry, log: FastifyBaseLogger): (done: (error?: Error) => void) => void {
  return function apiVersioningTelemetry (done) {
    try {
      telemetry.start(message => log.warn(message))
    } catch (error) {
      return done(error as Error)
    }
    done()
  }
}

import Fastify = require('fastify')
import { expect, test } from 'tstyche'
import apiVersioning = require('fastify-api-versioning')
import openapi = require('fastify-api-versioning/openapi')

test('require() gives the plugin itself, with .default and the named exports on it', () => {
  const app = Fastify.default()
  expect(app.register(apiVersioning, { problemDetails: true })).type.not.toRaiseError()
  expect(apiVersioning.default).type.toBe<typeof apiVersioning.apiVersioning>()
  expect(apiVersioning.ApiVersion.parse('1.0')).type.toBe<apiVersioning.ApiVersion>()
  expect(app.register(openapi, { routePrefix: '/openapi' })).type.not.toRaiseError()
  expect(app.register(apiVersioning, { reportApiVersion: true })).type.toRaiseError()
})

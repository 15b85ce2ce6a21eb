import type { SwaggerTransformObject } from '@fastify/swagger'
import Fastify from 'fastify'
import { expect, test } from 'tstyche'
import apiVersioning from 'fastify-api-versioning'
import apiVersioningOpenApi, { apiVersioningOpenApi as named, type ApiVersionChanges, type ApiVersionDocument, type OpenApiDocument, type TransformObjectContext } from 'fastify-api-versioning/openapi'

const app = Fastify()

test('the openapi entry registers with its options and decorates the app', async () => {
  await app.register(apiVersioning)
  expect(app.register(apiVersioningOpenApi, { openapi: { info: { title: 'Orders' } }, ui: { routePrefix: '/docs' } })).type.not.toRaiseError()
  expect(app.register(apiVersioningOpenApi, { prefixRoute: '/x' })).type.toRaiseError()
  expect(named).type.toBe(apiVersioningOpenApi)
  expect(app.apiVersionDocuments()).type.toBe<readonly ApiVersionDocument[]>()
  expect(app.apiVersionChanges()).type.toBe<readonly ApiVersionChanges[]>()
  expect(app.apiVersionDocuments().map(document => document.version)).type.toBe<string[]>()
})

test("transformObject gets the document, as openapiObject too (@fastify/swagger's name), and the version", () => {
  expect(app.register(apiVersioningOpenApi, { transformObject: ({ document, version }) => ({ ...document, info: { ...document.info, title: version } }) })).type.not.toRaiseError()
  // One written for @fastify/swagger, which reads openapiObject.
  const swaggerStyle = ({ openapiObject }: { openapiObject: OpenApiDocument }): OpenApiDocument => openapiObject
  expect(app.register(apiVersioningOpenApi, { transformObject: swaggerStyle })).type.not.toRaiseError()
  expect<TransformObjectContext>().type.toHaveProperty('openapiObject')
  // One typed as @fastify/swagger's own (fastify-type-provider-zod's jsonSchemaTransformObject is).
  const jsonSchemaTransformObject: SwaggerTransformObject = ({ openapiObject }: any) => openapiObject
  expect(app.register(apiVersioningOpenApi, { transformObject: jsonSchemaTransformObject })).type.not.toRaiseError()
  expect(app.register(apiVersioningOpenApi, { transformObject: ({ document }) => document.info.title })).type.toRaiseError()
})

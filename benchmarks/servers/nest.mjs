// NestJS on @nestjs/platform-fastify with versioning: `node nest.mjs header` (the api-version header) or
// `node nest.mjs custom` (a custom extractor reading the query, then the header). Decorators applied by hand,
// as TypeScript would compile them, so no build step is needed.
import 'reflect-metadata'
import { Controller, Get, Module, VERSION_NEUTRAL, VersioningType } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter } from '@nestjs/platform-fastify'
import { payload, ready } from './payload.mjs'

function controller (path, version) {
  const C = class { get () { return payload } }
  Get()(C.prototype, 'get', Object.getOwnPropertyDescriptor(C.prototype, 'get'))
  Controller({ path, version })(C)
  return C
}

class AppModule {}
Module({ controllers: [controller('items', ['1.0', '2.0']), controller('health', VERSION_NEUTRAL)] })(AppModule)

function fromQueryOrHeader (req) {
  const q = req.url.indexOf('?')
  const query = q === -1 ? null : new URLSearchParams(req.url.slice(q + 1)).get('api-version')
  return query ?? req.headers['api-version'] ?? ''
}

const app = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false })
app.enableVersioning(process.argv[2] === 'custom'
  ? { type: VersioningType.CUSTOM, extractor: fromQueryOrHeader }
  : { type: VersioningType.HEADER, header: 'api-version' })
await app.listen(0, '127.0.0.1')
ready(app.getHttpServer().address().port)

// express with express-routes-versioning: the version from the query, the header or the path; no match is a 400.
import { EventEmitter } from 'node:events'
import express from 'express'
import routesVersioning from 'express-routes-versioning'
import { payload, ready } from './payload.mjs'

const versioned = routesVersioning()
const problem = { type: 'https://example.com/problems#unsupported', title: 'Bad API version', status: 400 }
const handler = (req, res) => res.json(payload)
const byVersion = versioned({ '1.0.0': handler, '2.0.0': handler }, (req, res) =>
  res.status(400).type('application/problem+json').send(JSON.stringify(problem)))

// With pipelining, express queues a listener per pending request on the socket; 10 in flight is expected here.
EventEmitter.defaultMaxListeners = 20
const app = express()
app.disable('x-powered-by')
app.get('/items', (req, res, next) => { req.version = req.query['api-version'] ?? req.headers['api-version']; next() }, byVersion)
app.get('/v:apiVersion/items', (req, res, next) => { req.version = req.params.apiVersion; next() }, byVersion)
app.get('/health', handler)
const server = app.listen(0, '127.0.0.1', () => ready(server.address().port))

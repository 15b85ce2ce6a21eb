/** An OpenAPI 3.0 or 3.1 document (see the `openapi-types` package for a full type). */
export interface OpenApiDocument {
  openapi: string
  info: { title: string, version: string, description?: string, [keyword: string]: unknown }
  paths: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, unknown>, [keyword: string]: unknown }
  [keyword: string]: unknown
}

/** One API version's document. */
export interface ApiVersionDocument {
  /** The version, as the routes declare it (`'1.0'`). */
  readonly version: string
  /** Deprecated: no route supports the version any more, though some still serve it. */
  readonly deprecated: boolean
  readonly document: OpenApiDocument
}

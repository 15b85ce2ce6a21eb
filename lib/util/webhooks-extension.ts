/** Where an OpenAPI 3.0 document holds webhooks (3.1 has `webhooks`): Redoc's extension. */
export const WEBHOOKS_EXTENSION = 'x-webhooks'

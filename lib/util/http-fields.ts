/**
 * Header fields HTTP gives a meaning of its own (lower-case): those of HTTP's RFCs and IANA's field name registry
 * that servers, clients, caches and proxies act on, the ones browsers and security middleware (helmet) send, and
 * the families named by a prefix. A version header under one of these names would be read as that field.
 */
const FIELDS = new Set([
  // Semantics, caching and messaging (RFC 9110, 9111, 9112), with the names they reserve.
  'accept', 'accept-charset', 'accept-encoding', 'accept-language', 'accept-ranges', 'age', 'allow',
  'authentication-info', 'authorization', 'cache-control', 'close', 'connection', 'date', 'etag', 'expect',
  'expires', 'from', 'host', 'keep-alive', 'last-modified', 'location', 'max-forwards', 'pragma',
  'proxy-connection', 'range', 'referer', 'retry-after', 'server', 'te', 'trailer', 'transfer-encoding', 'upgrade',
  'user-agent', 'vary', 'via', 'warning', 'www-authenticate',
  // Cookies, links, lifecycle, forwarding, alternative services, preferences, priorities, digests, signatures.
  'cookie', 'cookie2', 'set-cookie', 'set-cookie2', 'link', 'deprecation', 'sunset', 'forwarded', 'x-forwarded-for',
  'x-real-ip', 'alt-svc', 'alt-used', 'prefer', 'preference-applied', 'priority', 'digest', 'want-digest',
  'repr-digest', 'want-repr-digest', 'signature', 'signature-input', 'accept-signature', 'early-data',
  'http2-settings', 'idempotency-key', 'cache-status', 'cdn-cache-control', 'proxy-status', 'refresh',
  'server-timing', 'ratelimit', 'ratelimit-policy', 'x-powered-by', 'x-request-id',
  // Browsers and security middleware.
  'origin', 'strict-transport-security', 'referrer-policy', 'permissions-policy', 'feature-policy',
  'cross-origin-embedder-policy', 'cross-origin-embedder-policy-report-only', 'cross-origin-opener-policy',
  'cross-origin-opener-policy-report-only', 'cross-origin-resource-policy', 'origin-agent-cluster',
  'timing-allow-origin', 'clear-site-data', 'report-to', 'reporting-endpoints', 'nel', 'dnt',
  'upgrade-insecure-requests', 'service-worker-allowed', 'sourcemap', 'x-sourcemap', 'x-content-type-options',
  'x-frame-options', 'x-xss-protection', 'x-dns-prefetch-control', 'x-download-options',
  'x-permitted-cross-domain-policies', 'critical-ch'
])

// Families: CORS (access-control-*), the Fetch standard's forbidden sec-*, conditionals (if-*), representation
// metadata (content-*: RFC 9110 has a server refuse those it does not understand), content negotiation
// (accept-*), proxies (proxy-*), forwarding (x-forwarded-*) and rate limits (ratelimit-*, x-ratelimit-*).
const FAMILIES = ['access-control-', 'sec-', 'if-', 'content-', 'accept-', 'proxy-', 'x-forwarded-', 'ratelimit-', 'x-ratelimit-']

/** Whether HTTP gives the header field `name` (any case) a meaning of its own. */
export function isHttpField (name: string): boolean {
  const lower = name.toLowerCase()
  return FIELDS.has(lower) || FAMILIES.some(prefix => lower.startsWith(prefix))
}

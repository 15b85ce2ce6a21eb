// OpenAPI's pattern of a component's name: what a `$id` or a name must be to name one.
const COMPONENT_NAME = /^[\w.-]+$/

/** Whether a text can name an OpenAPI component (`Order`, not `http://example.com/order.json`). */
export function isComponentName (name: string): boolean {
  return COMPONENT_NAME.test(name)
}

/**
 * The Fastify versions the plugin runs on: 5.8.1, the oldest the whole test suite passes on (the lowest-peer
 * tests run it; 5.7 and older have no handlerTimeout, and before 5.6 no routerOptions), and later 5.x. Not 5.8.0:
 * it says it is 5.7.4, and fastify-plugin checks what Fastify says. fastify-plugin refuses others at start-up
 * (FST_ERR_PLUGIN_VERSION_MISMATCH); package.json's peerDependencies say the same.
 */
export const FASTIFY_RANGE = '^5.8.1'

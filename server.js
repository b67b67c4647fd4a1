/*
 * Runs the HTTP server straight from the TypeScript sources (no build step), used by `npm start`.
 */
import 'ts-node-maintained/register/esm'
await import('./bin/server.js')

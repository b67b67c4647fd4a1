/*
 * Runs the HTTP server straight from the TypeScript sources (no build step), used by `npm start`.
 */
import './scripts/ts_loader.js'
await import('./bin/server.js')

/*
 * Runs the project's TypeScript sources with a compile cache (scripts/ts_loader_hooks.js):
 * imported first by server.js and ace.js, and preloaded (--import) by scripts/test.js. Stack
 * traces point into the .ts sources.
 */
import { register } from 'node:module'

process.setSourceMapsEnabled(true)
register('./ts_loader_hooks.js', import.meta.url)
// The processes that `node ace serve` and `node ace test` start (@adonisjs/assembler) then run
// with ts-node-maintained, also a dependency, instead of the missing ts-node.
process.versions.tsNodeMaintained ??= 'modelgate-ts-loader'

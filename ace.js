/*
|--------------------------------------------------------------------------
| JavaScript entrypoint for running ace commands
|--------------------------------------------------------------------------
| Registers the TypeScript hook (scripts/ts_loader.js: swc, with a compile cache) and hands over
| to bin/console.ts. After `node ace build`, build/ace.js runs compiled code.
*/
import './scripts/ts_loader.js'
import { ensureEnv } from './scripts/ensure_env.js'

// A fresh clone has no .env yet: write it as `npm start` does, so that commands work first.
ensureEnv()
await import('./bin/console.js')

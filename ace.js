/*
|--------------------------------------------------------------------------
| JavaScript entrypoint for running ace commands
|--------------------------------------------------------------------------
| Registers the TypeScript hook (ts-node-maintained with swc) and hands over
| to bin/console.ts. After `node ace build`, build/ace.js runs compiled code.
*/
import 'ts-node-maintained/register/esm'
import { ensureEnv } from './scripts/ensure_env.js'

// A fresh clone has no .env yet: write it as `npm start` does, so that commands work first.
ensureEnv()
await import('./bin/console.js')

/*
|--------------------------------------------------------------------------
| JavaScript entrypoint for running ace commands
|--------------------------------------------------------------------------
| Registers the TypeScript hook (ts-node-maintained with swc) and hands over
| to bin/console.ts. After `node ace build`, build/ace.js runs compiled code.
*/
import 'ts-node-maintained/register/esm'
await import('./bin/console.js')

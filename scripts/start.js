/*
 * `npm start`: everything a fresh clone needs, then the server. Writes .env when missing, builds
 * the console when needed, and starts the server from the TypeScript sources. The server itself
 * migrates the system tables and imports the demo application into an empty model.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { ensureEnv } from './ensure_env.js'
import { ensureConsoleBuilt } from './console_build.js'
import { serverV8Flags } from './v8_flags.js'

ensureEnv()
ensureConsoleBuilt()

const dotenv = readFileSync('.env', 'utf8')
const env = { ...process.env }
// Conventional defaults when neither the environment nor .env sets them.
if (!env.PORT && !/^PORT=\S/m.test(dotenv)) env.PORT = '8080'
if (!env.HOST && !/^HOST=\S/m.test(dotenv)) env.HOST = '0.0.0.0'

const server = spawn(process.execPath, [...serverV8Flags(), 'server.js'], { stdio: 'inherit', env })
let stopping = false
const stop = () => {
  if (!stopping) server.kill('SIGTERM')
  stopping = true
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop)
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

/*
 * npm itself exits at once on SIGTERM without passing it on, which would leave this process and
 * the server running. When the parent goes away this process is re-parented: the server is then
 * stopped the way a SIGTERM would (it drains), so `npm start` does not leave an orphan behind.
 * Production runs the server without npm (README "Start, stop and timeouts").
 */
const parent = process.ppid
setInterval(() => process.ppid !== parent && stop(), 250).unref()

/*
 * `npm start`: everything a fresh clone needs, then the server. Writes .env when missing, builds
 * the console when needed, and starts the server from the TypeScript sources. The server itself
 * migrates the system tables and imports the demo application into an empty model.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { ensureEnv } from './ensure_env.js'
import { ensureConsoleBuilt } from './console_build.js'

ensureEnv()
ensureConsoleBuilt()

const dotenv = readFileSync('.env', 'utf8')
const env = { ...process.env }
// Conventional defaults when neither the environment nor .env sets them.
if (!env.PORT && !/^PORT=\S/m.test(dotenv)) env.PORT = '8080'
if (!env.HOST && !/^HOST=\S/m.test(dotenv)) env.HOST = '0.0.0.0'

const server = spawn(process.execPath, ['server.js'], { stdio: 'inherit', env })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill('SIGTERM'))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

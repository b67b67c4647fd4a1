/*
 * Builds the console (console-ui -> public/console) when the build is missing or older than
 * its sources. Used by `npm start` and by the test runner before the browser suite.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

function newest(dir) {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

export function ensureConsoleBuilt() {
  const index = 'public/console/index.html'
  // Sources: the code, index.html and the static files Vite copies as they are (the icons).
  const sources = Math.max(
    newest('console-ui/src'),
    newest('console-ui/public'),
    statSync('console-ui/index.html').mtimeMs
  )
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return
  if (!existsSync('console-ui/node_modules')) {
    const install = spawnSync('node', ['scripts/install_console.js'], { stdio: 'inherit' })
    if (install.status !== 0) throw new Error('installing the console dependencies failed')
  }
  console.log('building the console (console-ui -> public/console)')
  // Built beside the served copy, then swapped in: a server (or a parallel test run) never
  // serves a half-written build. Type checking is `npm run typecheck`'s job (CI runs it).
  const next = `public/console.next-${process.pid}`
  const build = spawnSync(
    'npx',
    ['--prefix', 'console-ui', 'vite', 'build', 'console-ui', '--outDir', `../${next}`, '--emptyOutDir'],
    { stdio: 'inherit' }
  )
  if (build.status !== 0) {
    rmSync(next, { recursive: true, force: true })
    throw new Error('console build failed')
  }
  rmSync('public/console', { recursive: true, force: true })
  renameSync(next, 'public/console')
}

if (import.meta.url === `file://${process.argv[1]}`) ensureConsoleBuilt()

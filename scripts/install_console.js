/*
 * postinstall: installs the console's own dependencies (console-ui has its own lockfile,
 * see design/architecture.md). `npm ci` when the lockfile exists, so clean clones are exact.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

if (process.env.MODELGATE_SKIP_CONSOLE_INSTALL === '1' || !existsSync('console-ui/package.json')) {
  process.exit(0)
}
const verb = existsSync('console-ui/package-lock.json') ? 'ci' : 'install'
const result = spawnSync('npm', ['--prefix', 'console-ui', verb, '--no-audit', '--no-fund'], {
  stdio: 'inherit',
})
process.exit(result.status ?? 1)

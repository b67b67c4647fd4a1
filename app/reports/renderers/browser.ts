/**
 * One Chromium per process for PDF output (playwright-core over Debian's `chromium`): launched
 * on the first PDF run, reused by every later one (a context per job), launched again if it
 * died, closed by `closeBrowser()` (the server's shutdown) and killed with the process
 * otherwise. Without an executable (CHROMIUM_PATH, else /usr/bin/chromium, chromium-browser)
 * a PDF run answers 503.
 */
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import app from '@adonisjs/core/services/app'
import { ReportError } from '../types.js'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

let pending: Promise<Browser> | null = null
let current: Browser | null = null

export function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH
  if (configured) return existsSync(configured) ? configured : null
  return CANDIDATES.find((p) => existsSync(p)) ?? null
}

export function noChromium(): ReportError {
  return new ReportError(
    'PDF output needs Chromium: install it (apt-get install chromium) or set CHROMIUM_PATH',
    503
  )
}

let closedOnShutdown = false

async function launch(): Promise<Browser> {
  const executablePath = chromiumPath()
  if (!executablePath) throw noChromium()
  // The app's shutdown closes it, after the last request. Registered here: a server that never
  // rendered a PDF need not load this module (and Playwright) to stop.
  if (!closedOnShutdown) app.terminating(closeBrowser)
  closedOnShutdown = true
  const browser = await chromium.launch({
    executablePath,
    // The server owns shutdown (closeBrowser); Playwright still kills the child when node exits.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-sync',
      '--disable-extensions',
      '--no-first-run',
      '--mute-audio',
    ],
  })
  browser.on('disconnected', () => {
    if (pending && current === browser) {
      pending = null
      current = null
    }
  })
  current = browser
  return browser
}

/** The shared browser, launching it if none is running (concurrent callers share one launch). */
export async function sharedBrowser(): Promise<Browser> {
  if (pending) {
    const browser = await pending.catch(() => null)
    if (browser?.isConnected()) return browser
    pending = null
  }
  pending = launch()
  try {
    return await pending
  } catch (error) {
    pending = null
    if (error instanceof ReportError) throw error
    const message = (error as Error).message ?? ''
    if (/executable doesn't exist|ENOENT|spawn/i.test(message)) throw noChromium()
    throw new ReportError(`Chromium could not start: ${message.split('\n')[0]}`, 503)
  }
}

/** Closes the shared browser (server shutdown, tests); the next PDF run launches a new one. */
export async function closeBrowser(): Promise<void> {
  const p = pending
  pending = null
  current = null
  if (!p) return
  const browser = await p.catch(() => null)
  await browser?.close().catch(() => {})
}

/** Is a browser running now (for tests and health pages)? */
export function browserRunning(): boolean {
  return current?.isConnected() ?? false
}

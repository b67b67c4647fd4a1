/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Browser-suite helpers: Debian's Chromium driven by playwright-core, a database prepared as a
 * started server has it (built-in users, the console's OAuth client), sign-in through the real
 * login form, screenshots at desktop and phone size under tmp/screenshots, and an axe-core scan
 * that fails on serious or critical violations.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import app from '@adonisjs/core/services/app'
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core'
import { resetDatabase } from '#tests/helpers/database'
import { ensureBuiltInUsers } from '#oauth/accounts'
import { syncConfigClients } from '#oauth/config_clients'
import { Engine } from '#engine/main'

export const ADMIN_PASSWORD = 'Console-Admin-passw0rd'
export const baseUrl = () => `http://${process.env.HOST}:${process.env.PORT}`
export const consoleUrl = (path = '/') => `${baseUrl()}/console${path}`

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

/** An empty database as a fresh server has it: `admin` (ADMIN_PASSWORD), `anonymous`, the console client. */
export async function resetForConsole() {
  const engine = await resetDatabase()
  await ensureBuiltInUsers({ adminPassword: ADMIN_PASSWORD, log: () => {} })
  await syncConfigClients((await app.container.make(Engine)).properties, Number(process.env.PORT))
  return engine
}

export const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }

/** A fresh context (own cookies) and page at desktop size. */
export async function newPage(
  browser: Browser,
  viewport = DESKTOP
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  return { context, page }
}

/** Fills the server's login form (the page must be on it). */
export async function fillLoginForm(page: Page, username: string, password: string) {
  await page.locator('input[name="username"]').fill(username)
  await page.locator('input[name="password"]').fill(password)
  await page.locator('button[type="submit"]:not([name="cancel"])').click()
}

/**
 * Opens a console path; the console sends an unauthenticated visitor to the login form, which
 * is filled in; resolves once the console shows the signed-in shell on that path.
 */
export async function signIn(
  page: Page,
  path = '/',
  username = 'admin',
  password = ADMIN_PASSWORD
) {
  await page.goto(consoleUrl(path))
  await page.waitForURL(/\/as-login|\/oauth2\/authorize/)
  await fillLoginForm(page, username, password)
  await page.getByTestId('current-user').waitFor()
}

/**
 * The number of elements `locator` matches once it settles at `expected` (lists that filter as
 * the admin types render a moment later), or the last count after `timeout` ms.
 */
export async function countWhenSettled(locator: Locator, expected: number, timeout = 10_000) {
  const until = Date.now() + timeout
  let count = await locator.count()
  while (count !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    count = await locator.count()
  }
  return count
}

/**
 * Ticks or clears a checkbox whose state may follow a round trip (the URL, a query): clicks it,
 * then waits for the new state (playwright's check() expects it at once).
 */
export async function setChecked(page: Page, testId: string, checked: boolean) {
  const box = page.getByTestId(testId)
  if ((await box.isChecked()) !== checked) await box.click()
  await page
    .locator(`[data-testid="${testId}"]${checked ? ':checked' : ':not(:checked)'}`)
    .waitFor()
}

/** Back to the top with nothing focused (screenshots of long forms). */
export const toTop = (page: Page) =>
  page.evaluate(() => {
    ;(document.activeElement as HTMLElement | null)?.blur()
    window.scrollTo(0, 0)
  })

/**
 * Picks the option showing `text` in a console combobox (`<picker>-input`, `<picker>-option`)
 * and closes the list (a multiple-choice picker stays open for the next choice).
 */
export async function pickOption(page: Page, picker: string, text: string) {
  await page.getByTestId(`${picker}-input`).fill(text)
  await page.getByTestId(`${picker}-option`).filter({ hasText: text }).first().click()
  await page.keyboard.press('Escape')
  await page.getByTestId(`${picker}-option`).first().waitFor({ state: 'hidden' })
}

/** Screenshots of the current page at 1280x800 and 390x844: tmp/screenshots/<name>-{desktop,phone}.png. */
export async function screenshots(page: Page, name: string) {
  const dir = app.makePath('tmp/screenshots')
  mkdirSync(dir, { recursive: true })
  const before = page.viewportSize() ?? DESKTOP
  await page.setViewportSize(DESKTOP)
  await page.waitForTimeout(150)
  await page.screenshot({ path: `${dir}/${name}-desktop.png`, fullPage: false })
  await page.setViewportSize(PHONE)
  await page.waitForTimeout(150)
  await page.screenshot({ path: `${dir}/${name}-phone.png`, fullPage: false })
  await page.setViewportSize(before)
}

let axeSource: string | undefined

export interface AxeViolation {
  id: string
  impact: string
  help: string
  nodes: string[]
}

/** axe-core's serious and critical violations on the current page (empty when clean). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  // Evaluated through the DevTools protocol: the console's CSP forbids inline scripts. Once per
  // document: the console navigates without reloading, and axe stays loaded.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe
    const run = await axe.run(document, { resultTypes: ['violations'] })
    return run.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')),
    }))
  })
  return (result as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

/**
 * Whether this run takes the screenshots and axe scans. .ci/run turns them off in its
 * PostgreSQL pass (TEST_PAGE_CHECKS=off): the pages are the same on both databases, and the
 * SQLite pass beside it checks every one of them.
 */
const pageChecks = process.env.TEST_PAGE_CHECKS !== 'off'
if (!pageChecks) console.log('page checks (screenshots, axe scans) are off in this run')

/** Screenshots at both sizes and an axe scan that must be clean: the per-page checklist. */
export async function checkPage(
  page: Page,
  name: string,
  assert: { deepEqual: (a: unknown, b: unknown, m?: string) => void }
) {
  if (!pageChecks) return
  await screenshots(page, name)
  assert.deepEqual(
    await axeViolations(page),
    [],
    `${name}: serious/critical accessibility violations`
  )
}

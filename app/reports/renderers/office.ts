/**
 * DOCX/XLSX -> PDF with LibreOffice, only where it is installed (`soffice` on PATH or
 * SOFFICE_PATH); otherwise 500 `Couldn't find LibreOffice instance` as upstream answers. One
 * headless process per conversion with its own throw-away profile (no shared state, no UNO
 * ports), killed (process group) at the time limit or when the run is aborted; the temporary
 * directory is removed in every case.
 */
import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ReportError } from '../types.js'
import { abortError } from './common.js'

/** Conversion time limit (ms): `REPORTS_OFFICE_TIMEOUT_MS`, default 60 s. */
export const OFFICE_TIMEOUT_MS = Number(process.env.REPORTS_OFFICE_TIMEOUT_MS) || 60_000

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The soffice executable: SOFFICE_PATH when set (and executable), else the first on PATH. */
export function officePath(): string | null {
  const configured = process.env.SOFFICE_PATH
  if (configured) return executable(configured) ? configured : null
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    for (const name of ['soffice', 'libreoffice']) {
      const candidate = join(dir, name)
      if (executable(candidate)) return candidate
    }
  }
  return null
}

export async function convertWithOffice(
  input: Buffer,
  ext: 'docx' | 'xlsx',
  signal: AbortSignal,
  timeoutMs = OFFICE_TIMEOUT_MS
): Promise<Buffer> {
  const soffice = officePath()
  if (!soffice) throw new ReportError("Couldn't find LibreOffice instance", 500)
  const dir = await mkdtemp(join(tmpdir(), 'mg-report-office-'))
  try {
    const source = join(dir, `report.${ext}`)
    await writeFile(source, input)
    const profile = pathToFileURL(join(dir, 'profile')).href
    await run(
      soffice,
      [
        '--headless',
        '--norestore',
        '--nologo',
        '--nodefault',
        `-env:UserInstallation=${profile}`,
        '--convert-to',
        'pdf',
        '--outdir',
        dir,
        source,
      ],
      signal,
      timeoutMs
    )
    try {
      return await readFile(join(dir, 'report.pdf'))
    } catch {
      throw new ReportError('LibreOffice could not convert the document to PDF', 500)
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

function run(cmd: string, args: string[], signal: AbortSignal, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    let outcome: Error | null = null
    const kill = (why: Error) => {
      outcome ??= why
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }
    const timer = setTimeout(
      () => kill(new ReportError(`LibreOffice conversion exceeded ${timeoutMs} ms`, 500)),
      timeoutMs
    )
    const onAbort = () => kill(abortError(signal))
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString()
    })
    const finish = (error: Error | null) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      if (error) reject(error)
      else resolve()
    }
    child.on('error', (e) =>
      finish(outcome ?? new ReportError(`LibreOffice failed: ${e.message}`, 500))
    )
    child.on('close', (code) => {
      if (outcome) return finish(outcome)
      if (code !== 0)
        return finish(
          new ReportError(`LibreOffice failed (${code}): ${stderr.trim().slice(0, 300)}`, 500)
        )
      finish(null)
    })
  })
}

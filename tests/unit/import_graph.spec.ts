/**
 * The rooms of the architecture, checked on the source: the engine (the data layer) knows
 * nothing of OAuth or of the application definition above it, and the system models (Lucid
 * models of system tables) do not import the engine.
 */
import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import app from '@adonisjs/core/services/app'

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const files = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? sourceFiles(join(dir, e.name))
        : Promise.resolve(e.name.endsWith('.ts') ? [join(dir, e.name)] : [])
    )
  )
  return files.flat()
}

/** Every module a file imports (static, dynamic and type-only), as a path under app/ or an alias. */
async function importsOf(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8')
  const specifiers = [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1])
  return specifiers.map((s) => {
    if (s.startsWith('#')) return s
    if (!s.startsWith('.')) return s
    const target = relative(app.appRoot.pathname, resolve(dirname(file), s))
    return target.replace(/\\/g, '/')
  })
}

const ROOMS: Record<string, RegExp> = {
  oauth: /^(#oauth\/|app\/oauth\/)/,
  definition: /^(#definition\/|app\/definition\/)/,
  engine: /^(#engine\/|app\/engine\/)/,
}

async function violations(dir: string, forbidden: string[]) {
  const found: string[] = []
  for (const file of await sourceFiles(app.makePath(dir))) {
    for (const target of await importsOf(file)) {
      for (const room of forbidden)
        if (ROOMS[room].test(target))
          found.push(`${relative(app.appRoot.pathname, file)} imports ${target}`)
    }
  }
  return found
}

test.group('import graph', () => {
  test('app/engine imports nothing from app/oauth or app/definition', async ({ assert }) => {
    assert.deepEqual(await violations('app/engine', ['oauth', 'definition']), [])
  })

  test('no system model imports the engine', async ({ assert }) => {
    assert.deepEqual(await violations('app/models', ['engine', 'definition']), [])
  })

  test('the checker sees imports (a known edge exists)', async ({ assert }) => {
    // Guards the two tests above against a scanner that finds nothing at all.
    const edges = await violations('app/definition', ['engine'])
    assert.isAbove(edges.length, 0)
  })
})

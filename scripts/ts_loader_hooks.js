/*
 * Module hooks that run the project's TypeScript sources (registered by scripts/ts_loader.js).
 * The same swc transform as ts-node-maintained with this tsconfig (decorators with their
 * metadata, class fields defined, ES modules), with each file's output kept on disk under
 * node_modules/.cache/modelgate-ts, keyed by a hash of the source and the options: a process
 * that starts again (tests spawn about 25 servers per pass) neither loads TypeScript nor
 * compiles what has not changed. The outputs of earlier versions of a file stay in the cache
 * until node_modules/.cache is removed (about 17 kB each, with its inline source map).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = new URL('../', import.meta.url)
const cacheDir = fileURLToPath(new URL('node_modules/.cache/modelgate-ts/', root))
const swcVersion = JSON.parse(
  readFileSync(new URL('node_modules/@swc/core/package.json', root), 'utf8')
).version

/** ts-node-maintained's swc options for tsconfig.json (target ESNext, NodeNext, decorators). */
const options = {
  sourceMaps: 'inline',
  module: { type: 'es6' },
  jsc: {
    parser: { syntax: 'typescript', tsx: false, decorators: true, dynamicImport: true },
    target: 'esnext',
    transform: { decoratorMetadata: true, legacyDecorator: true, useDefineForClassFields: true },
    keepClassNames: true,
    experimental: { keepImportAttributes: true, emitAssertForImportAttributes: false },
  },
}
const optionsKey = `${swcVersion}:${JSON.stringify(options)}`

let swc
/** The compiled module for `source`: from the cache, or compiled by swc and then cached. */
async function compile(source, filename) {
  const key = createHash('sha1').update(optionsKey).update(filename).update(source).digest('hex')
  const cached = `${cacheDir}${key}.js`
  if (existsSync(cached)) return readFileSync(cached, 'utf8')
  swc ??= (await import('@swc/core')).default
  const { code } = await swc.transform(source, { ...options, filename })
  // Another process may compile the same file at the same time: each writes its own file and
  // renames it into place, so that no reader sees half a file. A read-only disk (a container)
  // only goes without the cache.
  try {
    mkdirSync(cacheDir, { recursive: true })
    const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`
    writeFileSync(partial, code)
    renameSync(partial, cached)
  } catch {}
  return code
}

const isProjectSource = (url) =>
  url.startsWith(root.href) && url.endsWith('.ts') && !url.includes('/node_modules/')

/**
 * The sources import each other as `.js` (NodeNext): where that file does not exist and the
 * `.ts` beside it does, the `.ts` is the module.
 */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context)
  } catch (error) {
    const url = error?.code === 'ERR_MODULE_NOT_FOUND' ? error.url : undefined
    if (typeof url !== 'string' || !url.endsWith('.js')) throw error
    const source = url.slice(0, -3) + '.ts'
    if (!isProjectSource(source) || !existsSync(fileURLToPath(source))) throw error
    return { url: source, format: 'module', shortCircuit: true }
  }
}

export async function load(url, context, nextLoad) {
  if (!isProjectSource(url)) return nextLoad(url, context)
  const filename = fileURLToPath(url)
  const source = await compile(readFileSync(filename, 'utf8'), filename)
  return { format: 'module', source, shortCircuit: true }
}

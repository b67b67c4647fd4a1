/**
 * The service catalogue: the registered classes (start/services.ts) with their decorated
 * methods, merged with the services XML (`svc.rest.services-config`). XML entries win over
 * decorators for the same service and method name (reference 6.1); an XML service or method
 * without a registered class or TypeScript method is skipped with a warning, as upstream skips
 * an unknown bean. The XML is read again when the property's value changes or when one of its
 * files changes (size or modification time; checked with a `stat` at most once a second).
 */
import { stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import engine from '#engine/services/engine'
import { decoratedMethods, serviceNameOf } from './decorators.js'
import { readServicesXml } from './xml_config.js'
import { typeName, type MethodDeclaration, type ServiceClass } from './types.js'

export const SERVICES_CONFIG = 'svc.rest.services-config'

export interface ServiceEntry {
  name: string
  serviceClass: ServiceClass
  methods: MethodDeclaration[]
}

/** The catalogue in force and what it was built from. */
export interface Catalogue {
  /** Moves with every rebuild (documents derived from the catalogue key on it). */
  generation: number
  services: Promise<Map<string, ServiceEntry>>
}

/** Files are stat-ed at most this often (ms). */
export const XML_CHECK_INTERVAL = 1000

const registered: ServiceClass[] = []
let cache: (Catalogue & { config: string; files: string; checkedAt: number }) | null = null
let generation = 0

/** Registers service classes (start/services.ts calls it once). */
export function registerServices(classes: ServiceClass[]) {
  for (const serviceClass of classes) {
    if (!registered.includes(serviceClass)) registered.push(serviceClass)
  }
  cache = null
}

/** The files of the property's value, relative paths from the application root. */
function filesOf(config: string): string[] {
  const paths = config.split(/\s+/).filter(Boolean)
  return paths.map((p) => (isAbsolute(p) ? p : join(app.appRoot.pathname, p)))
}

/** Size and modification time of every file (a missing one is `-`: reading it will fail). */
async function fingerprint(files: string[]): Promise<string> {
  const parts = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (s) => `${s.size}:${s.mtimeMs}`,
        () => '-'
      )
    )
  )
  return parts.join('|')
}

async function build(config: string): Promise<Map<string, ServiceEntry>> {
  const catalogue = new Map<string, ServiceEntry>()
  for (const serviceClass of registered) {
    const name = serviceNameOf(serviceClass)
    catalogue.set(name, { name, serviceClass, methods: [...decoratedMethods(serviceClass)] })
  }
  for (const xml of await readServicesXml(filesOf(config))) {
    const entry = catalogue.get(xml.name)
    if (!entry) {
      logger.warn('services XML: no registered service class is named %s; skipped', xml.name)
      continue
    }
    const xmlNames = new Set(xml.methods.map((m) => m.name))
    const own = entry.methods.filter((m) => !xmlNames.has(m.name))
    const proto = entry.serviceClass.prototype as Record<string, unknown>
    const listed = xml.methods.filter((m) => {
      if (typeof proto[m.property] === 'function') return true
      logger.warn('services XML: %s has no method %s; skipped', xml.name, m.name)
      return false
    })
    entry.methods = [...own, ...listed]
  }
  return catalogue
}

/**
 * The catalogue in force: rebuilt when the property's value changed, or when a file of it
 * changed (checked at most once per XML_CHECK_INTERVAL).
 */
export async function currentCatalogue(): Promise<Catalogue> {
  const config = engine.properties.get<string>(SERVICES_CONFIG) ?? ''
  const now = Date.now()
  if (cache && cache.config === config && now - cache.checkedAt < XML_CHECK_INTERVAL) return cache
  const files = filesOf(config)
  const stamp = files.length ? await fingerprint(files) : ''
  if (cache && cache.config === config && cache.files === stamp) {
    cache.checkedAt = now
    return cache
  }
  if (cache && cache.config === config) logger.info('services XML changed: %s reloaded', config)
  cache = {
    config,
    files: stamp,
    checkedAt: now,
    generation: ++generation,
    services: build(config),
  }
  return cache
}

/** The services in force. */
export async function services(): Promise<Map<string, ServiceEntry>> {
  return (await currentCatalogue()).services
}

/** The listing shape of reference 6.2: one entry per (method, HTTP method) of decorators. */
export function describeService(entry: ServiceEntry) {
  return {
    name: entry.name,
    methods: entry.methods.flatMap((method) =>
      (method.httpMethods ?? [null]).map((httpMethod) => ({
        name: method.name,
        httpMethod,
        params: method.params.map((p) => ({
          name: p.name,
          type: typeName(p.type),
          required: p.required !== false,
        })),
      }))
    ),
  }
}

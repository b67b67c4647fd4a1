/**
 * The service catalogue: the registered classes (start/services.ts) with their decorated
 * methods, merged with the services XML (`svc.rest.services-config`). XML entries win over
 * decorators for the same service and method name (reference 6.1); an XML service or method
 * without a registered class or TypeScript method is skipped with a warning, as upstream skips
 * an unknown bean. The XML is read once per value of the property (restart after editing it).
 */
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

const registered: ServiceClass[] = []
let cache: { config: string; services: Promise<Map<string, ServiceEntry>> } | null = null

/** Registers service classes (start/services.ts calls it once). */
export function registerServices(classes: ServiceClass[]) {
  for (const serviceClass of classes) {
    if (!registered.includes(serviceClass)) registered.push(serviceClass)
  }
  cache = null
}

async function build(config: string): Promise<Map<string, ServiceEntry>> {
  const catalogue = new Map<string, ServiceEntry>()
  for (const serviceClass of registered) {
    const name = serviceNameOf(serviceClass)
    catalogue.set(name, { name, serviceClass, methods: [...decoratedMethods(serviceClass)] })
  }
  const paths = config.split(/\s+/).filter(Boolean)
  const resolved = paths.map((p) => (isAbsolute(p) ? p : join(app.appRoot.pathname, p)))
  for (const xml of await readServicesXml(resolved)) {
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

/** The catalogue in force. */
export function services(): Promise<Map<string, ServiceEntry>> {
  const config = engine.properties.get<string>(SERVICES_CONFIG) ?? ''
  if (!cache || cache.config !== config) cache = { config, services: build(config) }
  return cache.services
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

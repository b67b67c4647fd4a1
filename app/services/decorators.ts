/**
 * Decorators exposing a class as a REST service (spec 4.3 rules 1, 2, 4; reference 6.1):
 *
 *   @restService()                       // name: the class name, first letter lower-case
 *   export default class OrderService extends RestServiceBase {
 *     @restMethod({ params: [{ name: 'orderId', type: 'int' }] })   // GET and POST
 *     async total(orderId: number) { ... }
 *   }
 *
 * Only registered classes are served (start/services.ts). TypeScript legacy decorators
 * (`experimentalDecorators`, on in this project's tsconfig).
 */
import type { HttpMethod, MethodDeclaration, ParamDeclaration } from './types.js'

interface ServiceMeta {
  name?: string
  methods: MethodDeclaration[]
}

const METAS = new WeakMap<object, ServiceMeta>()

function metaOf(constructor: object): ServiceMeta {
  let meta = METAS.get(constructor)
  if (!meta) METAS.set(constructor, (meta = { methods: [] }))
  return meta
}

/** Spec 4.3 rule 4: `OrderService` -> `orderService`. */
export const defaultServiceName = (className: string) =>
  className.charAt(0).toLowerCase() + className.slice(1)

/** The service name of a class: the decorator's, else the default. */
export function serviceNameOf(constructor: { name: string }): string {
  return METAS.get(constructor)?.name ?? defaultServiceName(constructor.name)
}

/** Methods declared by decorators (empty for a class without them). */
export function decoratedMethods(constructor: object): MethodDeclaration[] {
  return METAS.get(constructor)?.methods ?? []
}

export function restService(name?: string) {
  return (constructor: object) => {
    if (name !== undefined) metaOf(constructor).name = name
  }
}

export interface RestMethodOptions {
  /** Exposed name; default the method's own name. */
  name?: string
  /** Allowed HTTP methods; default GET and POST. */
  httpMethods?: HttpMethod[]
  /** Every parameter, in the order of the method's arguments (all required). */
  params?: ParamDeclaration[]
}

export function restMethod(options: RestMethodOptions = {}) {
  return (target: object, property: string, _descriptor: PropertyDescriptor) => {
    metaOf(target.constructor).methods.push({
      name: options.name ?? property,
      property,
      httpMethods: options.httpMethods ?? ['GET', 'POST'],
      params: (options.params ?? []).map((p) => ({ ...p, required: true })),
      source: 'decorator',
    })
  }
}

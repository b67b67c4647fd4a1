/**
 * Invocation of a service method (reference 6.3): method resolution by name, HTTP method and
 * supplied parameter names; argument conversion; the call with the caller's context; the
 * result's kind. No HTTP here: the controller renders the `ServiceResult`.
 */
import { DataError } from '#engine/data/errors'
import { convert, isInvalid } from './arguments.js'
import { services } from './catalogue.js'
import type { HttpMethod, MethodDeclaration, ServiceContext } from './types.js'

export type ServiceResult =
  { kind: 'void' } | { kind: 'text'; text: string } | { kind: 'json'; value: unknown }

const methodNotFound = (service: string, method: string, names: string[]) =>
  new DataError(404, 'Service method not found', `${service}.${method}(${names.join(',')})`)

const invalidParameter = (name: string) =>
  new DataError(400, 'Invalid parameter value', `Invalid parameter value for ${name}`)

function resolve(
  methods: MethodDeclaration[],
  name: string,
  httpMethod: HttpMethod,
  supplied: string[]
): MethodDeclaration[] {
  return methods.filter(
    (m) =>
      m.name === name &&
      (m.httpMethods === null || m.httpMethods.includes(httpMethod)) &&
      supplied.length <= m.params.length &&
      supplied.every((s) => m.params.some((p) => p.name === s)) &&
      m.params.every((p) => p.required === false || supplied.includes(p.name))
  )
}

/** A simple value as upstream formats it (not JSON-quoted). */
function render(value: unknown): ServiceResult {
  if (value === undefined || value === null) return { kind: 'void' }
  if (value instanceof Date) return { kind: 'text', text: value.toISOString() }
  if (['string', 'number', 'boolean', 'bigint'].includes(typeof value)) {
    return { kind: 'text', text: String(value) }
  }
  return { kind: 'json', value }
}

/**
 * Calls `service.method` with `args` (query texts when `fromQuery`, else the JSON body's values).
 * Throws DataError for the upstream errors.
 */
export async function invokeService(
  serviceName: string,
  methodName: string,
  httpMethod: HttpMethod,
  args: Record<string, unknown>,
  fromQuery: boolean,
  context: ServiceContext
): Promise<ServiceResult> {
  const supplied = Object.keys(args)
  const entry = (await services()).get(serviceName)
  // Upstream answers an unknown bean with 500; a client mistake is a 404 here (design 5).
  if (!entry) throw methodNotFound(serviceName, methodName, supplied)
  const found = resolve(entry.methods, methodName, httpMethod, supplied)
  if (found.length === 0) throw methodNotFound(serviceName, methodName, supplied)
  if (found.length > 1) {
    const message = `Cannot determine the service method to call. ${found.length} suitable methods have been found`
    throw new DataError(400, message, message)
  }
  const method = found[0]
  const values: unknown[] = []
  for (const param of method.params) {
    if (!(param.name in args)) {
      values.push(null)
      continue
    }
    const value = await convert(param.type, args[param.name], fromQuery)
    if (isInvalid(value)) throw invalidParameter(param.name)
    values.push(value)
  }
  const instance = new entry.serviceClass(context) as Record<string, (...a: unknown[]) => unknown>
  return render(await instance[method.property](...values))
}

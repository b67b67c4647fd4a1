/**
 * The services XML (spec 4.3 rule 3, reference 6.1), at the path of `svc.rest.services-config`
 * (relative to the application root; several paths separated by spaces):
 *
 *   <services xmlns="http://jmix.io/schema/rest/services">
 *     <service name="stockService">
 *       <method name="lowStock" httpMethod="GET">
 *         <param name="threshold" type="int"/>
 *         <param name="comment" required="false"/>
 *       </method>
 *     </service>
 *   </services>
 *
 * `type`: a datatype name, `enum:<fqn>`, `entity:<name>` or `entities:<name>`; all or none of a
 * method's parameters have one. Parsed with fast-xml-parser.
 */
import { readFile } from 'node:fs/promises'
import { XMLParser } from 'fast-xml-parser'
import { SIMPLE_TYPES, type MethodDeclaration, type ParamType, type SimpleType } from './types.js'

export interface XmlService {
  name: string
  methods: MethodDeclaration[]
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  isArray: (name) => ['service', 'method', 'param'].includes(name),
})

function paramType(text: string | undefined, where: string): ParamType | undefined {
  if (text === undefined || text === '') return undefined
  if ((SIMPLE_TYPES as readonly string[]).includes(text)) return text as SimpleType
  const [kind, target] = text.split(':', 2)
  if (target && kind === 'enum') return { enum: target }
  if (target && kind === 'entity') return { entity: target }
  if (target && kind === 'entities') return { entities: target }
  throw new Error(`${where}: unknown parameter type "${text}"`)
}

function httpMethods(text: string | undefined, where: string): MethodDeclaration['httpMethods'] {
  if (text === undefined) return null
  if (text === 'GET' || text === 'POST') return [text]
  throw new Error(`${where}: httpMethod must be GET or POST`)
}

/** Parses one services document; a malformed document throws (the server refuses to serve). */
export function parseServicesXml(xml: string, file: string): XmlService[] {
  const root = parser.parse(xml)?.services
  if (root === undefined) throw new Error(`${file}: the root element must be <services>`)
  return (root.service ?? []).map((service: any) => {
    if (!service.name) throw new Error(`${file}: a <service> has no name`)
    const methods: MethodDeclaration[] = (service.method ?? []).map((method: any) => {
      const where = `${file}: ${service.name}.${method.name}`
      if (!method.name) throw new Error(`${file}: a <method> of ${service.name} has no name`)
      const params = (method.param ?? []).map((p: any) => ({
        name: String(p.name),
        type: paramType(p.type, where),
        required: p.required !== 'false',
      }))
      const typed = params.filter((p: { type?: ParamType }) => p.type !== undefined).length
      if (typed !== 0 && typed !== params.length) {
        throw new Error(`${where}: give a type to every parameter or to none`)
      }
      return {
        name: String(method.name),
        property: String(method.name),
        httpMethods: httpMethods(method.httpMethod, where),
        params,
        source: 'xml' as const,
      }
    })
    return { name: String(service.name), methods }
  })
}

export async function readServicesXml(paths: string[]): Promise<XmlService[]> {
  const services: XmlService[] = []
  for (const path of paths) services.push(...parseServicesXml(await readFile(path, 'utf8'), path))
  return services
}

/**
 * The declared shapes of REST services (spec 4.3, reference 6.1): what a decorator or the
 * services XML says about a method and its parameters. TypeScript erases parameter types, so
 * every parameter declares its type here.
 */
import type { DataManager } from '#engine/data/data_manager'
import type { Subject } from '#security/subject'
import type { ConstructableSchema } from '@vinejs/vine/types'

export type HttpMethod = 'GET' | 'POST'

/** Datatype names (the attribute datatypes of the definition contract). */
export const SIMPLE_TYPES = [
  'string',
  'int',
  'long',
  'double',
  'decimal',
  'boolean',
  'date',
  'time',
  'dateTime',
  'uuid',
  'fileRef',
] as const
export type SimpleType = (typeof SIMPLE_TYPES)[number]

/**
 * A parameter type: a datatype name, `{ enum: fqn }`, `{ entity: name }` (one entity JSON
 * object), `{ entities: name }` (a JSON array of them) or `{ schema }` (a VineJS schema: a
 * structured/DTO parameter). In the XML: `int`, `enum:<fqn>`, `entity:<name>`, `entities:<name>`.
 */
export type ParamType =
  | SimpleType
  | { enum: string }
  | { entity: string }
  | { entities: string }
  | { schema: ConstructableSchema<any, any, any>; name?: string }

export interface ParamDeclaration {
  name: string
  /** Absent (XML only): the raw text (GET) or the JSON value (POST) is passed as it is. */
  type?: ParamType
  /** Default true (upstream: annotated parameters are always required). */
  required?: boolean
}

export interface MethodDeclaration {
  /** Exposed name (default: the TypeScript method name). */
  name: string
  /** The TypeScript method called. */
  property: string
  /** null (XML without `httpMethod`): both. */
  httpMethods: HttpMethod[] | null
  params: ParamDeclaration[]
  source: 'decorator' | 'xml'
}

/** What a service instance gets: the caller and a DataManager acting as the caller. */
export interface ServiceContext {
  subject: Subject
  data: DataManager
}

/** Base class of REST services: `this.data` is the caller's DataManager. */
export abstract class RestServiceBase {
  constructor(protected readonly context: ServiceContext) {}
  protected get data(): DataManager {
    return this.context.data
  }
  protected get subject(): Subject {
    return this.context.subject
  }
}

export type ServiceClass = new (context: ServiceContext) => object

/** The listing entry of a type (reference 6.2 `type`). */
export function typeName(type: ParamType | undefined): string | null {
  if (type === undefined) return null
  if (typeof type === 'string') return type
  if ('enum' in type) return type.enum
  if ('entity' in type) return type.entity
  if ('entities' in type) return `${type.entities}[]`
  return type.name ?? 'object'
}

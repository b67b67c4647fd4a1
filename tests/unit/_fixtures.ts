/**
 * Small builders for model definitions used by the pure unit tests (not a spec file).
 */
import type {
  AttributeDefinition,
  EntityDefinition,
  FetchPlanDefinition,
  ModelDefinition,
} from '#engine/metadata/types'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'

export function entity(
  name: string,
  attributes: AttributeDefinition[] = [],
  extra: Partial<EntityDefinition> = {}
): EntityDefinition {
  return { name, attributes, ...extra }
}

export function model(
  entities: EntityDefinition[],
  extra: Partial<ModelDefinition> = {}
): ModelDefinition {
  return { enums: [], entities, fetchPlans: [], ...extra }
}

export function plan(
  entityName: string,
  name: string,
  properties: FetchPlanDefinition['properties'],
  extendsPlan?: string
): FetchPlanDefinition {
  return { entity: entityName, name, properties, ...(extendsPlan ? { extends: extendsPlan } : {}) }
}

export const str = (
  name: string,
  extra: Partial<AttributeDefinition> = {}
): AttributeDefinition => ({ name, type: 'string', ...extra })
export const int = (
  name: string,
  extra: Partial<AttributeDefinition> = {}
): AttributeDefinition => ({ name, type: 'int', ...extra })
export const m2o = (
  name: string,
  target: string,
  extra: Partial<AttributeDefinition> = {}
): AttributeDefinition => ({
  name,
  type: 'association',
  cardinality: 'MANY_TO_ONE',
  target,
  ...extra,
})
export const o2m = (name: string, target: string, mappedBy?: string): AttributeDefinition => ({
  name,
  type: 'composition',
  cardinality: 'ONE_TO_MANY',
  target,
  ...(mappedBy ? { mappedBy } : {}),
})

/** A two-entity shop: Order 1-n OrderLine, both with a few plain attributes. */
export function shop(): ModelDefinition {
  return model([
    entity(
      'shop_Order',
      [
        str('number', { length: 20, mandatory: true, unique: true }),
        o2m('lines', 'shop_OrderLine', 'order'),
      ],
      {
        instanceName: 'number',
      }
    ),
    entity('shop_OrderLine', [m2o('order', 'shop_Order', { mandatory: true }), int('quantity')]),
  ])
}

export async function demoDocument(): Promise<Record<string, any>> {
  return JSON.parse(await readFile(app.makePath('database/demo/bookstore.json'), 'utf8'))
}

/** Asserts that some problem has exactly this path and a message matching `message`. */
export function hasProblem(
  assert: { fail(message: string): never } & Record<string, any>,
  problems: { path: string; message: string }[],
  path: string,
  message?: RegExp
) {
  const found = problems.some((p) => p.path === path && (!message || message.test(p.message)))
  if (!found)
    assert.fail(
      `expected a problem at ${path}${message ? ` matching ${message}` : ''}; got ${JSON.stringify(problems, null, 1)}`
    )
}

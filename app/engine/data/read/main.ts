/**
 * The read half of DataManager: `load`, `list`, `count` for a subject (DataContext). Pipeline:
 * entity lookup (404) -> read permission (403) -> fetch plan (404) cut to viewable attributes ->
 * filter (400) and sort -> paging (limit above the maximum: 400) -> root statement + one batched
 * statement per relation level (loader.ts) -> entity JSON (serializer.ts).
 */
import type { EntityMeta } from '../../metadata/model.js'
import type { DataContext, EntityJson, ListOptions, ReadOptions } from '../data_manager.js'
import { DataError, instanceNotFound } from '../errors.js'
import { loadRoot, rootQuery } from './loader.js'
import { readRows } from './shaped.js'
import type { ReadPlan } from './plan.js'
import { outputAndLoad, planFilter, planPaging, planSort, readableEntity } from './plan.js'
import { serialize } from './serializer.js'
import { entityWriter } from './json_writer.js'
import type { LoadedRow } from './loader.js'
import { formatId } from './values.js'
import { encodeSecurityToken } from '#security/security_token'

function securityToken(entity: EntityMeta, node: LoadedRow): string {
  return encodeSecurityToken({
    entity: entity.name,
    id: formatId(node.row.id),
    hidden: Object.fromEntries(node.hidden ?? []),
  })
}

export type { ReadPlan } from './plan.js'
export type { LoadedRow } from './loader.js'
export { instanceName, serialize } from './serializer.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The id segment per the entity's id type (upstream `getIdFromString`). */
export function parseId(entity: EntityMeta, id: string): string | number {
  const invalid = () =>
    new DataError(400, 'Invalid entity ID', `Cannot convert ${id} into valid entity ID`)
  if (entity.idType === 'uuid') {
    if (!UUID.test(id)) throw invalid()
    return id.toLowerCase()
  }
  if (entity.idType === 'long') {
    if (!/^-?\d{1,19}$/.test(id)) throw invalid()
    const n = Number(id)
    return Number.isSafeInteger(n) ? n : id
  }
  return id
}

function serializeOptions(ctx: DataContext, plan: ReadPlan) {
  return {
    returnNulls: plan.returnNulls,
    token: ctx.securityTokens ? securityToken : undefined,
    caption: ctx.caption,
  }
}

function serializeAll(ctx: DataContext, plan: ReadPlan, rows: LoadedRow[]) {
  const options = serializeOptions(ctx, plan)
  return rows.map((r) => serialize(ctx.model, plan.entity, plan.output, r, options))
}

/** The rows as JSON text, each written by the plan's compiled writer (json_writer.ts). */
function writeAll(ctx: DataContext, plan: ReadPlan, rows: LoadedRow[]): string[] {
  const options = serializeOptions(ctx, plan)
  const write = entityWriter(ctx.model, plan.entity, plan.output, plan.returnNulls)
  const path = new Set<string>()
  return rows.map((r) => write(r, path, options))
}

async function loadRows(
  ctx: DataContext,
  entityName: string,
  id: string,
  options: ReadOptions
): Promise<{ plan: ReadPlan; rows: LoadedRow[] }> {
  const entity = readableEntity(ctx, entityName)
  const key = parseId(entity, id)
  const plan: ReadPlan = {
    entity,
    ...outputAndLoad(ctx, entity, options.fetchPlan, options.serverPlan),
    filter: null,
    sort: [],
    limit: 1,
    offset: 0,
    returnNulls: !!options.returnNulls,
  }
  const rows = await loadRoot(ctx, plan, key)
  if (rows.length === 0) throw instanceNotFound(entity.name, id)
  return { plan, rows }
}

export async function load(
  ctx: DataContext,
  entityName: string,
  id: string,
  options: ReadOptions = {}
): Promise<EntityJson> {
  const { plan, rows } = await loadRows(ctx, entityName, id, options)
  return serializeAll(ctx, plan, rows)[0]
}

/** `load` as JSON text (the same bytes as `stringifyJson` of its object). */
export async function loadJson(
  ctx: DataContext,
  entityName: string,
  id: string,
  options: ReadOptions = {}
): Promise<string> {
  const { plan, rows } = await loadRows(ctx, entityName, id, options)
  return writeAll(ctx, plan, rows)[0]
}

async function listRows(ctx: DataContext, entityName: string, options: ListOptions) {
  const entity = readableEntity(ctx, entityName)
  const filter = planFilter(ctx, entity, options.filter)
  const plan: ReadPlan = {
    entity,
    ...outputAndLoad(ctx, entity, options.fetchPlan),
    filter,
    sort: planSort(ctx, entity, options.sort),
    ...planPaging(ctx, options.limit, options.offset),
    returnNulls: !!options.returnNulls,
  }
  return { plan, rows: await loadRoot(ctx, plan) }
}

export async function list(
  ctx: DataContext,
  entityName: string,
  options: ListOptions = {}
): Promise<{ items: EntityJson[]; total?: number }> {
  const { plan, rows } = await listRows(ctx, entityName, options)
  const items = serializeAll(ctx, plan, rows)
  if (!options.returnCount) return { items }
  return { items, total: await countPlan(ctx, plan) }
}

/**
 * `[items]` as one flat text: the brackets go into the first and last item before the join, so
 * the join's own result is the answer (a `[` + text + `]` around it would be copied again by
 * whoever reads it whole, e.g. the UTF-8 encoding of the response).
 */
function arrayText(items: string[]): string {
  if (items.length === 0) return '[]'
  items[0] = `[${items[0]}`
  items[items.length - 1] += ']'
  return items.join(',')
}

/** `list` as a JSON array text (the same bytes as `stringifyJson` of its items). */
export async function listJson(
  ctx: DataContext,
  entityName: string,
  options: ListOptions = {}
): Promise<{ json: string; total?: number }> {
  const { plan, rows } = await listRows(ctx, entityName, options)
  const json = arrayText(writeAll(ctx, plan, rows))
  if (!options.returnCount) return { json }
  return { json, total: await countPlan(ctx, plan) }
}

async function countPlan(ctx: DataContext, plan: Pick<ReadPlan, 'entity' | 'filter'>) {
  const [row] = await readRows(ctx, () => rootQuery(ctx, plan).q.count('* as total'))
  return Number(row?.total ?? 0)
}

export async function count(
  ctx: DataContext,
  entityName: string,
  filter?: unknown
): Promise<number> {
  const entity = readableEntity(ctx, entityName)
  return countPlan(ctx, { entity, filter: planFilter(ctx, entity, filter) })
}

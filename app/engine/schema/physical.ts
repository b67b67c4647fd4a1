/**
 * The physical schema a model needs: tables, columns, foreign keys and indexes, derived purely
 * from the model snapshot. The planner diffs two of these; dialects turn them into SQL.
 */
import type { Datatype } from '../metadata/types.js'
import type { EntityMeta, Model } from '../metadata/model.js'
import { constraintName } from '../metadata/naming.js'

export interface ColumnType {
  kind: Datatype
  length?: number
  precision?: number
  scale?: number
}

export interface ColumnSpec {
  name: string
  type: ColumnType
  nullable: boolean
  primaryKey?: boolean
  autoIncrement?: boolean
  /** Integer default used by the `version` column of versioned entities. */
  defaultValue?: number
  references?: { table: string; column: string; constraint: string }
}

export interface IndexSpec {
  name: string
  columns: string[]
  unique: boolean
  /** Partial index over live rows only (soft-deleted entities). */
  whereNull?: string
}

export interface TableSpec {
  name: string
  /** `entity X` or `link X.attr`: used in messages. */
  owner: string
  columns: ColumnSpec[]
  primaryKey: string[]
  indexes: IndexSpec[]
}

export type PhysicalSchema = ReadonlyMap<string, TableSpec>

export function idColumnType(entity: EntityMeta): ColumnType {
  if (entity.idType === 'uuid') return { kind: 'uuid' }
  if (entity.idType === 'long') return { kind: 'long' }
  return { kind: 'string', length: 255 }
}

function columnType(model: Model, entity: EntityMeta, name: string): ColumnType {
  const a = entity.attributes.get(name)!
  if (a.kind !== 'datatype') return idColumnType(model.entity(a.target!)!)
  if (a.system) {
    if (a.name === 'id') return idColumnType(entity)
    if (a.datatype === 'string') return { kind: 'string', length: 255 }
    return { kind: a.datatype! }
  }
  const d = a.definition!
  switch (a.datatype) {
    case 'string':
      return { kind: 'string', length: d.length ?? 255 }
    case 'decimal':
      return { kind: 'decimal', precision: d.precision ?? 19, scale: d.scale ?? 2 }
    default:
      return { kind: a.datatype! }
  }
}

function entityTable(model: Model, entity: EntityMeta): TableSpec {
  const columns: ColumnSpec[] = []
  const indexes: IndexSpec[] = []
  const table = entity.table
  const softDelete = entity.traits.has('softDelete') ? 'deleted_date' : undefined
  for (const a of entity.attributeList) {
    if (!a.column) continue
    const column: ColumnSpec = {
      name: a.column,
      type: columnType(model, entity, a.name),
      nullable: !a.mandatory,
    }
    if (a.name === 'id') {
      column.primaryKey = true
      column.autoIncrement = entity.idType === 'long'
    }
    if (a.name === 'version') column.defaultValue = 1
    if (a.kind !== 'datatype') {
      const target = model.entity(a.target!)!
      column.references = {
        table: target.table,
        column: 'id',
        constraint: constraintName('fk', table, [a.column]),
      }
      indexes.push({
        name: constraintName('ix', table, [a.column]),
        columns: [a.column],
        unique: false,
      })
    }
    if (a.unique && a.name !== 'id') {
      indexes.push({
        name: constraintName('uq', table, [a.column]),
        columns: [a.column],
        unique: true,
        whereNull: softDelete,
      })
    }
    columns.push(column)
  }
  for (const index of entity.definition.indexes ?? []) {
    const cols = index.attributes.map((n) => entity.attributes.get(n)!.column!)
    indexes.push({
      name: index.name ?? constraintName(index.unique ? 'uq' : 'ix', table, cols),
      columns: cols,
      unique: !!index.unique,
      whereNull: index.unique ? softDelete : undefined,
    })
  }
  return { name: table, owner: `entity ${entity.name}`, columns, primaryKey: ['id'], indexes }
}

function linkTables(model: Model, entity: EntityMeta): TableSpec[] {
  const out: TableSpec[] = []
  for (const a of entity.attributeList) {
    if (!a.linkTable) continue
    const target = model.entity(a.target!)!
    const link = a.linkTable
    out.push({
      name: link.table,
      owner: `link ${entity.name}.${a.name}`,
      columns: [
        {
          name: link.ownerColumn,
          type: idColumnType(entity),
          nullable: false,
          references: {
            table: entity.table,
            column: 'id',
            constraint: constraintName('fk', link.table, [link.ownerColumn]),
          },
        },
        {
          name: link.targetColumn,
          type: idColumnType(target),
          nullable: false,
          references: {
            table: target.table,
            column: 'id',
            constraint: constraintName('fk', link.table, [link.targetColumn]),
          },
        },
      ],
      primaryKey: [link.ownerColumn, link.targetColumn],
      indexes: [
        {
          name: constraintName('ix', link.table, [link.targetColumn]),
          columns: [link.targetColumn],
          unique: false,
        },
      ],
    })
  }
  return out
}

export function physicalSchema(model: Model): PhysicalSchema {
  return model.derive('physicalSchema', () => {
    const tables = new Map<string, TableSpec>()
    for (const entity of model.entities.values()) {
      tables.set(entity.table, entityTable(model, entity))
      for (const link of linkTables(model, entity)) tables.set(link.name, link)
    }
    return tables
  })
}

export function sameColumnType(a: ColumnType, b: ColumnType): boolean {
  return (
    a.kind === b.kind && a.length === b.length && a.precision === b.precision && a.scale === b.scale
  )
}

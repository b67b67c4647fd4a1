/*
 * The rows of one page: @tanstack/react-table for the columns and header state,
 * @tanstack/react-virtual so that a page of 500 rows renders only what is on screen.
 * Sorting is the server's (the header asks, the page reloads).
 */
import { useMemo, useRef } from 'react'
import { Link, useNavigate } from 'react-router'
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { ModelAttribute, ModelEnum } from '../../../lib/model'
import { isToMany } from '../../../lib/model'
import { formatCell } from '../api/format'
import type { EntityRow } from '../api/schema'
import type { SortKey } from '../hooks/use_table_state'

export interface DataTableProps {
  entity: string
  rows: EntityRow[]
  attributes: ModelAttribute[]
  enums: ModelEnum[]
  sort: SortKey[]
  onSort: (property: string) => void
  /** Captions of the columns (from /rest/metadata), by attribute name. */
  captions: Record<string, string>
  busy?: boolean
}

export const ROW_HEIGHT = 37

export const sortable = (a: ModelAttribute) => !isToMany(a) && a.type !== 'json'

export function DataTable({
  entity,
  rows,
  attributes,
  enums,
  sort,
  onSort,
  captions,
  busy,
}: DataTableProps) {
  const navigate = useNavigate()
  const scroller = useRef<HTMLDivElement>(null)
  const rowPath = (row: EntityRow) =>
    `/data/${encodeURIComponent(entity)}/${encodeURIComponent(row.id)}`

  const columns = useMemo<ColumnDef<EntityRow>[]>(
    () => [
      {
        id: '_instanceName',
        header: () => 'Row',
        cell: ({ row }) => (
          <Link
            to={rowPath(row.original)}
            className="data-row-link"
            data-testid="row-link"
            onClick={(e) => e.stopPropagation()}
          >
            {row.original._instanceName || row.original.id}
          </Link>
        ),
      },
      ...attributes.map<ColumnDef<EntityRow>>((a) => ({
        id: a.name,
        header: () => captions[a.name] ?? a.name,
        cell: ({ row }) => {
          const cell = formatCell(a, row.original[a.name], enums)
          return (
            <span className={cell.muted ? 'muted' : undefined} title={cell.title}>
              {cell.text}
            </span>
          )
        },
        meta: a,
      })),
    ],
    [attributes, enums, captions, entity]
  )

  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
  })
  const tableRows = table.getRowModel().rows
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    initialRect: { width: 1200, height: 600 },
  })
  const items = virtualizer.getVirtualItems()
  const padTop = items[0]?.start ?? 0
  const padBottom = items.length
    ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0)
    : 0
  const sortOf = (id: string) => sort.find((k) => k.property === id)

  return (
    <div
      className={busy ? 'table-wrap data-grid data-grid--busy' : 'table-wrap data-grid'}
      ref={scroller}
      data-testid="data-grid"
      tabIndex={0}
      role="region"
      aria-label={`Rows of ${entity}`}
    >
      <table className="table data-table" data-testid="data-table" aria-rowcount={rows.length + 1}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const a = header.column.columnDef.meta as ModelAttribute | undefined
                const key = sortOf(header.id)
                const content = flexRender(header.column.columnDef.header, header.getContext())
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={key ? (key.desc ? 'descending' : 'ascending') : undefined}
                    className={a && isNumeric(a) ? 'data-num' : undefined}
                    data-testid={`col-${header.id}`}
                  >
                    {a && sortable(a) ? (
                      <button
                        type="button"
                        className="data-sort"
                        onClick={() => onSort(header.id)}
                        title={`Sort by ${header.id}`}
                        data-testid="sort-button"
                      >
                        {content}
                        <span aria-hidden="true" className="data-sort__icon">
                          {key ? (key.desc ? '▼' : '▲') : '↕'}
                        </span>
                      </button>
                    ) : (
                      content
                    )}
                  </th>
                )
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden="true" className="data-pad">
              <td style={{ height: padTop }} colSpan={columns.length} />
            </tr>
          )}
          {items.map((item) => {
            const row = tableRows[item.index]!
            return (
              <tr
                key={row.id}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                className="data-row"
                data-testid="data-row"
                onClick={() => void navigate(rowPath(row.original))}
              >
                {row.getVisibleCells().map((cell) => {
                  const a = cell.column.columnDef.meta as ModelAttribute | undefined
                  return (
                    <td
                      key={cell.id}
                      className={a && isNumeric(a) ? 'data-num' : undefined}
                      data-col={cell.column.id}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  )
                })}
              </tr>
            )
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true" className="data-pad">
              <td style={{ height: padBottom }} colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}

const isNumeric = (a: ModelAttribute) => ['int', 'long', 'double', 'decimal'].includes(a.type)

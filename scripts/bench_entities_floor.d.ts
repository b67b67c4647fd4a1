/** Types of bench_entities_floor.js (imported by tests/functional/entities_bench_floor.spec.ts). */
export interface FloorDriver {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>
  run(sql: string, params?: unknown[]): Promise<void>
  exec(sql: string): Promise<void>
  close(): Promise<void>
}
export interface FloorScenarios {
  list(limit?: number): Promise<string>
  search(quantity: number, limit?: number): Promise<string>
  load(id: string): Promise<string | null>
  nested(limit?: number): Promise<string>
  composition(limit?: number): Promise<string>
}
export function floorScenarios(db: FloorDriver, options: { pg: boolean }): FloorScenarios
export function itemJson(row: Record<string, unknown>): string
export function openDriver(options: {
  pg: boolean
  sqliteFile?: string
  pgConfig?: Record<string, unknown>
  /** Rows built from the driver's arrays (`bench:entities --floor-raw-rows`). */
  rawRows?: boolean
}): Promise<FloorDriver>

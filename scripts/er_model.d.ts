/** Types of er_model.js (imported by tests/browser/er.spec.ts and the console's er_graph.test.ts). */
export function bigModel(count?: number): { name: string; attributes: Record<string, unknown>[] }[]

/** Types of er_model.js (imported by tests/browser/er.spec.ts). */
export function bigModel(count?: number): { name: string; attributes: Record<string, unknown>[] }[]

/**
 * Admin-written logic without admin-written JavaScript: computed fields are filtrex expressions
 * (no loops, no prototype access); band transforms are JSONata, run in a worker thread with a
 * time limit and a heap limit (JSONata has no time limit of its own: a recursive function never
 * returns), terminated when it overruns.
 */
import { Worker } from 'node:worker_threads'
import { createRequire } from 'node:module'
import { compileExpression } from 'filtrex'
import { ReportError, type ReportValue } from './types.js'

type Row = Record<string, ReportValue>

const compiled = new Map<string, (row: object) => unknown>()

function expression(text: string) {
  let fn = compiled.get(text)
  if (!fn) {
    fn = compileExpression(text)
    if (compiled.size > 1000) compiled.clear()
    compiled.set(text, fn)
  }
  return fn
}

/** Adds the computed fields to every row (an expression error leaves the field empty). */
export function addComputed(rows: Row[], computed: Record<string, string> | undefined) {
  if (!computed) return
  const entries = Object.entries(computed).map(([name, text]) => [name, expression(text)] as const)
  for (const row of rows)
    for (const [name, fn] of entries) {
      const value = fn(row)
      row[name] =
        value instanceof Error || value === undefined
          ? null
          : typeof value === 'object'
            ? JSON.stringify(value)
            : (value as ReportValue)
    }
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const jsonata = require(workerData.jsonata)
jsonata(workerData.expression).evaluate(workerData.rows).then(
  (result) => parentPort.postMessage({ result }),
  (error) => parentPort.postMessage({ error: String(error && error.message || error) })
)
`

/** The band's rows mapped by a JSONata expression (must give an array of objects). */
export function runTransform(
  expressionText: string,
  rows: Row[],
  timeoutMs: number
): Promise<Row[]> {
  const require = createRequire(import.meta.url)
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { expression: expressionText, rows, jsonata: require.resolve('jsonata') },
      resourceLimits: { maxOldGenerationSizeMb: 128 },
    })
    const timer = setTimeout(() => {
      worker.terminate()
      reject(new ReportError(`The band transform took longer than ${timeoutMs} ms`, 503))
    }, timeoutMs)
    const done = () => clearTimeout(timer)
    worker.once('message', (message: { result?: unknown; error?: string }) => {
      done()
      worker.terminate()
      if (message.error) return reject(new ReportError(`Band transform: ${message.error}`))
      const result = message.result
      const list = result === undefined ? [] : Array.isArray(result) ? result : [result]
      if (!list.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r)))
        return reject(new ReportError('Band transform must give objects (rows)'))
      resolve(list as Row[])
    })
    worker.once('error', (error) => {
      done()
      reject(new ReportError(`Band transform: ${error.message}`))
    })
  })
}

/*
 * Loaded into a benchmarked server with `node --import ./scripts/bench_gc.js` (bench:entities
 * only; never by the server itself): sums the duration of the garbage collector's pauses
 * (PerformanceObserver 'gc' entries) and answers the parent's `{ benchGc: 'read' }` message on
 * the IPC channel with `{ benchGc: <total ms so far> }`.
 */
import { PerformanceObserver } from 'node:perf_hooks'

let total = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) total += entry.duration
}).observe({ entryTypes: ['gc'] })

process.on('message', (message) => {
  if (message?.benchGc === 'read') process.send?.({ benchGc: total })
})
// The IPC channel must not keep a server alive that would otherwise stop.
process.channel?.unref()

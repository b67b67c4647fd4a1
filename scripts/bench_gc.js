/*
 * Loaded into a benchmarked server with `node --import ./scripts/bench_gc.js` (bench:entities
 * only; never by the server itself): sums the duration of the garbage collector's pauses
 * (PerformanceObserver 'gc' entries) and answers the parent's `{ benchGc: 'read' }` message on
 * the IPC channel with `{ benchGc: <total ms so far>, stallMs }`: the longest event-loop delay
 * since the previous read (`monitorEventLoopDelay`, sampled every 10 ms), that is the longest
 * time a request that arrived could have waited for the server to look at it.
 */
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks'

let total = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) total += entry.duration
}).observe({ entryTypes: ['gc'] })
const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()

process.on('message', (message) => {
  if (message?.benchGc !== 'read') return
  process.send?.({ benchGc: total, stallMs: loop.max / 1e6 })
  loop.reset()
})
// The IPC channel must not keep a server alive that would otherwise stop.
process.channel?.unref()

/*
 * `bench:entities -- --alloc[=promoted]`: the sampling heap profiler between
 * `{ benchHeap: 'start', promoted }` and `{ benchHeap: 'stop', file }` (answered with
 * `{ benchHeap: 'written' }`). All allocations, or (promoted) only those that outlived the
 * young generation: V8 drops a sample when a scavenge collects its object. Loaded lazily: a run
 * without --alloc never opens an inspector session.
 */
let heap
process.on('message', async (message) => {
  const command = message?.benchHeap
  if (!command) return
  if (!heap) {
    const { Session } = await import('node:inspector')
    const session = new Session()
    session.connect()
    heap = (method, params) =>
      new Promise((resolve, reject) =>
        session.post(method, params, (error, result) => (error ? reject(error) : resolve(result)))
      )
  }
  if (command === 'start') {
    await heap('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: !message.promoted,
    })
    process.send?.({ benchHeap: 'started' })
  } else if (command === 'stop') {
    const { profile } = await heap('HeapProfiler.stopSampling')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(message.file, JSON.stringify(profile))
    process.send?.({ benchHeap: 'written' })
  }
})

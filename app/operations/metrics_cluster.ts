/**
 * /metrics with WEB_CONCURRENCY workers (app/operations/cluster.ts): the workers share one port,
 * so a scrape lands on any of them; it must answer for the whole instance, not for itself.
 *
 * The worker that serves /metrics asks the primary over the cluster IPC channel; the primary
 * gathers every worker's registry through prom-client's AggregatorRegistry (each worker answers
 * its requests once startMetrics() ran) and sends back the merged text. Counters and histograms
 * are summed, the change versions give the lowest (the worker furthest behind), the default
 * process metrics use prom-client's own rules. The primary opens no database and runs no
 * application code: it only relays.
 */
import cluster from 'node:cluster'
import { randomUUID } from 'node:crypto'
import { AggregatorRegistry, type Registry } from 'prom-client'

const ASK = 'modelgate:metrics:ask'
const ANSWER = 'modelgate:metrics:answer'
/** Above prom-client's own 5 s for the workers' answers: its error comes back first. */
const TIMEOUT_MS = 6_000

type Answer = { type: typeof ANSWER; id: string; text?: string; error?: string }

/** In the primary, when MODELGATE_METRICS_TOKEN is set: answers the workers' asks. */
export function relayClusterMetrics() {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== ASK) return
    const reply = (answer: Omit<Answer, 'type' | 'id'>) =>
      worker.isConnected() && worker.send({ type: ANSWER, id: message.id, ...answer })
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message })
    )
  })
}

/** In a worker: lets the primary read `registry` (prom-client's worker-side listener). */
export function joinClusterMetrics(registry: Registry) {
  // The constructor installs the listener that answers the primary's requests.
  new AggregatorRegistry()
  AggregatorRegistry.setRegistries([registry])
}

/** In a worker: the merged text of every worker, through the primary. */
export function clusterMetricsText(): Promise<string> {
  const id = randomUUID()
  return new Promise((resolve, reject) => {
    const done = (message: Answer) => {
      if (message?.type !== ANSWER || message.id !== id) return
      clearTimeout(timer)
      process.off('message', done)
      if (message.error !== undefined) reject(new Error(message.error))
      else resolve(message.text ?? '')
    }
    const timer = setTimeout(() => {
      process.off('message', done)
      reject(new Error('the cluster primary did not answer'))
    }, TIMEOUT_MS)
    process.on('message', done)
    process.send!({ type: ASK, id })
  })
}

export const inWorker = () => cluster.isWorker

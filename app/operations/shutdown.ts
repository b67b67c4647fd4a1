/**
 * The HTTP server's connection lifecycle (README "Start, stop and timeouts"): the timeouts it is
 * created with, and the drain on SIGTERM/SIGINT. AdonisJS's Ignitor creates the Node server
 * through the factory below and, in its own `terminating` hook, calls `server.close()` and waits;
 * the drain runs before `app.terminate()`, so by then the server is closed and that hook returns
 * at once, and the engine's hook (change watcher, Chromium) and Lucid's pools close after the
 * last in-flight request instead of under it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { startDraining } from '#operations/readiness'

export interface ServerTimeouts {
  /** Idle time of a keep-alive connection before the server closes it. */
  keepAliveTimeout: number
  /** Time for a request's headers, counted from its first byte (slowloris). */
  headersTimeout: number
  /** Time to receive a whole request, body included (a slow upload). 0 = none. */
  requestTimeout: number
}

function envMs(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number of milliseconds, got '${raw}'`)
  return value
}

/**
 * The defaults keep a connection longer than common load balancers do (AWS ALB 60 s, nginx
 * upstream keep-alive 60 s): Node's 5 s default closes connections the balancer still thinks
 * open, and its next request fails with "other side closed". A new connection counts as a
 * request in progress until its first request's headers arrive, so the header timeout stays
 * just above the keep-alive one (a balancer's pre-opened idle connection is not cut first).
 */
export function serverTimeouts(): ServerTimeouts {
  const keepAliveTimeout = envMs('MODELGATE_KEEP_ALIVE_TIMEOUT_MS', 65_000)
  return {
    keepAliveTimeout,
    headersTimeout: envMs('MODELGATE_HEADERS_TIMEOUT_MS', keepAliveTimeout + 1_000),
    requestTimeout: envMs('MODELGATE_REQUEST_TIMEOUT_MS', 300_000),
  }
}

export function shutdownTimeout(): number {
  return envMs('MODELGATE_SHUTDOWN_TIMEOUT_MS', 10_000)
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/**
 * Open connections. Tracked per connection, not per request: a Map entry and a 'close' listener
 * per request kept every finished response reachable long enough for V8 to move it to the old
 * generation. A load by id at 50 connections on PostgreSQL (`--trace-gc-nvp`): 9 % of what it
 * allocated was promoted, 2.3 % per connection, with about a sixth less server CPU per request;
 * `bench:entities` GC column: 6.2 % of the wall time, 1.4 % now. A connection's request in
 * progress is its `_httpMessage` (Node's own field, set from the response's creation until it
 * is finished).
 */
const connections = new Set<Socket>()
let draining = false

/** The response a connection is serving now, if any. */
const inProgress = (socket: Socket): ServerResponse | null =>
  (socket as unknown as { _httpMessage?: ServerResponse | null })._httpMessage ?? null

function track(socket: Socket) {
  connections.add(socket)
  socket.once('close', () => connections.delete(socket))
}

/**
 * The Ignitor's server factory: node:http with the timeouts above. Node checks the header and
 * request timeouts on a timer (`connectionsCheckingInterval`, 30 s by default, which would let a
 * slow client hold a connection up to 30 s past its timeout); it runs here at a quarter of the
 * shorter timeout, at most every second.
 */
export function createHttpServer(handler: Handler): Server {
  const timeouts = serverTimeouts()
  shutdownTimeout() // a bad value stops the start, not the stop
  const shortest = Math.min(
    ...[timeouts.headersTimeout, timeouts.requestTimeout].filter((t) => t > 0),
    4_000
  )
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      connectionsCheckingInterval: Math.max(50, Math.floor(shortest / 4)),
    },
    (req, res) => {
      // A request that reached a draining server is answered, on a connection that then closes.
      if (draining) res.shouldKeepAlive = false
      handler(req, res)
    }
  )
  server.on('connection', track)
  server.keepAliveTimeout = timeouts.keepAliveTimeout
  return server
}

/** Whether a SIGTERM/SIGINT started the drain. */
export function isDraining() {
  return draining
}

/**
 * Stops taking new connections at once, lets in-flight requests finish for `timeoutMs`, then
 * closes what is left. Idle keep-alive connections close at once; a busy one answers its
 * in-flight request with `Connection: close` (or, when the headers went out already, closes
 * after the response). /health/ready answers 503 from the start (readiness.ts), for requests
 * already on a connection. Resolves with how many requests were still running at the timeout.
 */
export async function drainHttpServer(server: Server, timeoutMs: number): Promise<number> {
  if (draining) return 0
  draining = true
  startDraining()
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  // server.close() also closes the idle keep-alive connections (Node >= 19).
  for (const socket of connections) {
    const res = inProgress(socket)
    if (!res) continue
    if (!res.headersSent) res.shouldKeepAlive = false
    else res.once('finish', () => socket.end())
  }
  let timer: NodeJS.Timeout | undefined
  const timedOut = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
  ])
  clearTimeout(timer)
  if (!timedOut) return 0
  const busy = [...connections].filter((socket) => inProgress(socket) !== null)
  server.closeAllConnections()
  for (const socket of busy) socket.destroy()
  await closed
  return busy.length
}

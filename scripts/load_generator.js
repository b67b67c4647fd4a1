/*
 * The load generator of the benchmarks where it shares the cores with what it measures
 * (bench:workers, bench_cluster.js): wrk (Debian package `wrk`, C and epoll) when installed,
 * which costs about half of autocannon's CPU per request, else autocannon in this process;
 * `--loadgen=wrk|autocannon` chooses.
 *   const generator = loadGenerator(process.argv)
 *   const r = await generator.run({ base, paths, headers, connections, duration })
 *   -> { requests, p50, p99 (ms), bad (non-2xx, socket errors, timeouts), cpuMs }
 * `paths` are requested in random order; cpuMs is the generator's own CPU time (user + system):
 * for wrk read from the shell that waited for it (its children's cutime + cstime).
 */
import { spawn, spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { statCpuMs } from './proc_stat.js'

/** Whether wrk is installed (`apt-get install -y wrk`). */
const hasWrk = () => spawnSync('wrk', ['--version']).error === undefined

/** The Lua script: a random path per request, and a JSON summary at the end. */
function script(paths) {
  return `
local paths = { ${paths.map((p) => JSON.stringify(p)).join(', ')} }
request = function()
  return wrk.format(nil, paths[math.random(#paths)])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"bad":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status + e.connect + e.read + e.write + e.timeout))
end
`
}

async function wrk({ base, paths, headers = {}, connections = 50, duration = 10 }) {
  const file = join(tmpdir(), `modelgate-wrk-${process.pid}.lua`)
  writeFileSync(file, script(paths))
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '10s', '-s', file]
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
  // The shell waits for wrk, so its own /proc stat then holds wrk's CPU as its children's.
  const child = spawn(
    'sh',
    ['-c', 'wrk "$@"; code=$?; cat /proc/$$/stat >&2; exit $code', 'sh', ...args, base],
    { stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let out = ''
  let err = ''
  child.stdout.on('data', (c) => (out += c))
  child.stderr.on('data', (c) => (err += c))
  const code = await new Promise((resolve) => child.once('close', resolve))
  rmSync(file, { force: true })
  const line = out.split('\n').find((l) => l.startsWith('WRK '))
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${out}\n${err}`)
  const r = JSON.parse(line.slice(4))
  const stat = err.trim().split('\n').at(-1)
  return {
    requests: r.requests,
    p50: r.p50 / 1000,
    p99: r.p99 / 1000,
    bad: r.bad,
    cpuMs: statCpuMs(stat, { children: true }),
  }
}

async function autocannon({ base, paths, headers = {}, connections = 50, duration = 10 }) {
  const { default: run } = await import('autocannon')
  const before = process.cpuUsage()
  const r = await run({
    url: base,
    connections,
    duration,
    headers,
    requests: [
      {
        setupRequest: (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)] }),
      },
    ],
  })
  const cpu = process.cpuUsage(before)
  return {
    requests: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors + r.timeouts,
    cpuMs: (cpu.user + cpu.system) / 1000,
  }
}

/** The generator `--loadgen=` names, or wrk when installed, else autocannon. */
export function loadGenerator(argv = process.argv) {
  const name =
    argv.find((a) => a.startsWith('--loadgen='))?.split('=')[1] ?? (hasWrk() ? 'wrk' : 'autocannon')
  if (name !== 'wrk' && name !== 'autocannon') throw new Error(`unknown --loadgen=${name}`)
  return { name, run: name === 'wrk' ? wrk : autocannon }
}

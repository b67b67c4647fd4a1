/*
 * Summarizes a V8 CPU profile (`node --cpu-prof`, e.g. from `bench:entities -- --profile`):
 * where the busy time went, by self time per package / app folder, the top functions by self
 * time, and the inclusive time of frames whose name or file matches --focus (a regex).
 *   node scripts/bench_profile.js tmp/profiles/CPU.*.cpuprofile [--top=40] [--focus=regex]
 *        [--from=ms] [--to=ms]   (a window of the profile, ms from its start: the load run)
 *        [--phases=name:regex,name:regex,...]  (each sample to the first phase, in this order,
 *        with a frame on its stack matching: regexes tested on `function file:line`; default:
 *        the API request path) [--detail=phase name] (that phase's top functions)
 * Without --from/--to the busiest stretch is taken: from the first to the last second in which
 * the process was more than 90% busy (the load run of a benchmark).
 */
import { readFileSync } from 'node:fs'

const argv = process.argv.slice(2)
const opt = (name, fallback) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const file = argv.find((a) => !a.startsWith('--'))
if (!file) throw new Error('usage: node scripts/bench_profile.js PROFILE.cpuprofile')
const top = Number(opt('top', 40))
const focus = opt('focus') ? new RegExp(opt('focus')) : null
const profile = JSON.parse(readFileSync(file, 'utf8'))

const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

/** Where a frame's code lives: a package, an app folder, node internals or a V8 pseudo-frame. */
function category(frame) {
  const url = frame.url ?? ''
  if (!url) return frame.functionName ? `(${frame.functionName.replace(/[()]/g, '')})` : '(native)'
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
  if (pkg) return pkg[1]
  const app = url.match(/\/(app|start|config|bin)\/(.*)$/)
  if (app) {
    const parts = app[2].split('/')
    return `${app[1]}/${parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]}`
  }
  return url.replace(/^file:\/\//, '')
}
const label = (f) =>
  `${f.functionName || '(anonymous)'} ${(f.url ?? '').replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(app|start|config)\//, '$1/')}:${f.lineNumber + 1}`

const DEFAULT_PHASES = [
  [
    'sql: driver executes',
    /^_query knex\/lib\/dialects|^query pg\/lib\/client|^(handleDataRow|parse|_handle\w+) pg|pg-protocol/,
  ],
  ['sql: knex compiles', /knex\/lib\/(query|formatter|dialects\/\w+\/query)/],
  ['sql: knex/lucid runner, pool', /knex\/lib\/(execution|client)|@adonisjs\/lucid|tarn/],
  ['serialize rows', /^serialize app\/engine\/data\/read/],
  ['JSON.stringify + send', /^json app\/controllers/],
  ['response write', /^(finish|writeBody) @adonisjs\/http-server|_http_outgoing|^writev/],
  ['token verification', /^verifyAccessToken /],
  ['resource-server middleware', /resource_server_middleware/],
  ['other app middleware', /^handle app\/(middleware|files)/],
  ['read plan (plan.ts, query/)', /app\/engine\/data\/read\/plan|app\/engine\/query\/|params\.ts/],
  ['security', /app\/security\//],
  ['data pipeline (rest)', /app\/engine\/data|app\/controllers/],
  [
    'http parsing, routing, framework',
    /@adonisjs|@poppinss|_http_server|_http_common|_http_incoming|\bqs\//,
  ],
  ['GC', /^\(garbage collector\)/],
]
const phases = opt('phases')
  ? opt('phases')
      .split(',')
      .map((p) => [p.split(':')[0], new RegExp(p.split(':').slice(1).join(':'))])
  : DEFAULT_PHASES

// Sample times: timeDeltas[i] is the time before samples[i].
let [from, to] = [Number(opt('from', 0)) * 1000, Number(opt('to', Infinity)) * 1000]
if (!opt('from') && !opt('to')) {
  const busyPerSecond = []
  let clock = 0
  for (let i = 0; i < profile.samples.length; i++) {
    clock += profile.timeDeltas[i]
    const second = Math.floor(clock / 1e6)
    const frame = nodes.get(profile.samples[i]).callFrame
    if (frame.functionName !== '(idle)')
      busyPerSecond[second] = (busyPerSecond[second] ?? 0) + (profile.timeDeltas[i + 1] ?? 0)
  }
  const busy = [...busyPerSecond.keys()].filter((s) => (busyPerSecond[s] ?? 0) > 0.9e6)
  if (busy.length) [from, to] = [busy[0] * 1e6, (busy[busy.length - 1] + 1) * 1e6]
}
let t = 0
const selfTime = new Map()
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i]
  if (t < from || t > to) continue
  const id = profile.samples[i]
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0))
}

let total = 0
let idle = 0
const byCategory = new Map()
const byFunction = new Map()
const inclusive = new Map()
const byPhase = new Map()
const detail = opt('detail') // a phase name: its top functions by self time
const byDetail = new Map()
for (const [id, us] of selfTime) {
  const frame = nodes.get(id).callFrame
  total += us
  if (frame.functionName === '(idle)') {
    idle += us
    continue
  }
  const c = category(frame)
  byCategory.set(c, (byCategory.get(c) ?? 0) + us)
  const l = label(frame)
  byFunction.set(l, (byFunction.get(l) ?? 0) + us)
  const stack = []
  for (let n = id; n !== undefined; n = parent.get(n)) stack.push(label(nodes.get(n).callFrame))
  const phase = phases.find(([, re]) => stack.some((text) => re.test(text)))?.[0] ?? 'other'
  byPhase.set(phase, (byPhase.get(phase) ?? 0) + us)
  if (phase === detail) byDetail.set(l, (byDetail.get(l) ?? 0) + us)
  if (focus) {
    // Each matching frame on the stack once per sample (recursion counted once).
    const seen = new Set()
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const f = nodes.get(n).callFrame
      const key = label(f)
      if (!seen.has(key) && (focus.test(f.functionName) || focus.test(f.url ?? ''))) {
        seen.add(key)
        inclusive.set(key, (inclusive.get(key) ?? 0) + us)
      }
    }
  }
}
const busy = total - idle
const pct = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`
const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`
const print = (title, map, n) => {
  console.log(`\n${title}`)
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n))
    console.log(`${ms(v)} ${pct(v)}  ${k}`)
}
console.log(
  `profile ${file}, ${(from / 1e6).toFixed(0)}-${(Math.min(to, t) / 1e6).toFixed(0)} s: ` +
    `${ms(total)} sampled, ${ms(idle)} idle, ${ms(busy)} busy (100%)`
)
print('self time by phase (first phase in list order with a frame on the stack)', byPhase, 30)
print('self time by package / app folder', byCategory, 30)
print(`top ${top} functions by self time`, byFunction, top)
if (detail) print(`top ${top} functions of phase ${detail}`, byDetail, top)
if (focus) print(`inclusive time of frames matching ${focus}`, inclusive, top)

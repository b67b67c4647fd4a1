/*
 * CPU time and scheduling of processes from Linux /proc, for the benchmarks that share the
 * machine's cores with what they measure (bench:workers, bench_cluster.js, the load generator).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'

const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim() || 100)

/**
 * CPU milliseconds (user + system) in the text of a /proc/<pid>/stat: the process's own, or with
 * `children` those of the children it has waited for (cutime + cstime).
 */
export function statCpuMs(stat, { children = false } = {}) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]]
  return ((Number(user) + Number(system)) * 1000) / ticks
}

/** CPU milliseconds (user + system) of process `pid` so far, 0 when it is gone. */
export function cpuMs(pid) {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return 0
  }
}

/** CPU milliseconds of every process whose command name is `comm` (e.g. all of PostgreSQL). */
export function cpuMsOf(comm) {
  let total = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) total += cpuMs(entry)
    } catch {}
  }
  return total
}

/**
 * Times the scheduler took the CPU from these processes while they were runnable, not waiting
 * (nonvoluntary context switches); a process that is gone counts 0.
 */
export function preemptions(pids) {
  return pids.reduce((total, pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      return total + Number(status.match(/^nonvoluntary_ctxt_switches:\s+(\d+)/m)?.[1] ?? 0)
    } catch {
      return total
    }
  }, 0)
}

/*
 * Summarizes a sampling heap profile (`bench:entities -- --alloc`, or any `.heapprofile`):
 * bytes per request in all, and per allocating function (self size, V8's estimate from its
 * samples), largest first.
 *   node scripts/heap_summary.js FILE.heapprofile [--requests=N] [--top=20]
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/** { total, top: [[bytes, 'function file:line'], ...] } per request. */
export function summarizeHeap(file, requests = 1, top = 20) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const bySite = new Map()
  let total = 0
  const stack = [profile.head]
  while (stack.length) {
    const node = stack.pop()
    const f = node.callFrame
    const url = f.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/\/?.*?\/(app|scripts)\//, '$1/')
    const site = `${f.functionName || '(anonymous)'} ${url}:${f.lineNumber + 1}`
    total += node.selfSize
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize)
    stack.push(...(node.children ?? []))
  }
  const sites = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)
  return { total: total / requests, top: sites.map(([site, bytes]) => [bytes / requests, site]) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2)
  const opt = (name, fallback) =>
    Number(argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
  const file = argv.find((a) => !a.startsWith('--'))
  if (!file) throw new Error('usage: node scripts/heap_summary.js FILE.heapprofile [--requests=N]')
  const { total, top } = summarizeHeap(file, opt('requests', 1), opt('top', 20))
  console.log(`${Math.round(total)} bytes per request`)
  for (const [bytes, site] of top) console.log(`${String(Math.round(bytes)).padStart(9)}  ${site}`)
}

/**
 * 200 entities in 4 groups of 50: trees of many-to-one relations with some many-to-many links.
 * The ER diagram's model of `npm run bench:console`, tests/browser/er.spec.ts and the console's
 * unit test (console-ui/src/features/er/components/er_graph.test.ts).
 */
export function bigModel(count = 200) {
  const name = (i) => `perf_E${String(i).padStart(3, '0')}`
  return Array.from({ length: count }, (_, i) => {
    const attributes = [
      { name: 'code', type: 'string', length: 40, mandatory: true },
      { name: 'title', type: 'string' },
      { name: 'amount', type: 'decimal' },
      { name: 'count', type: 'int' },
      { name: 'active', type: 'boolean' },
      { name: 'note', type: 'text' },
    ]
    if (i % 50 !== 0)
      attributes.push({ name: 'parent', type: 'association', target: name(Math.max(i - (i % 50), i - 1 - (i % 3))), cardinality: 'MANY_TO_ONE' })
    if (i % 7 === 3) attributes.push({ name: 'links', type: 'association', target: name((i * 13) % count), cardinality: 'MANY_TO_MANY' })
    return { name: name(i), attributes }
  })
}

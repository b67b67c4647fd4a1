/**
 * Hit and miss counts of the caches that make a request cheap, read by /metrics at scrape time
 * (app/operations/metrics.ts). The caches themselves only increment a plain number: no
 * prom-client call, no label object, no allocation on their hot paths.
 *
 * - `model`: what is derived from one model version (`Model.derive`: read plans, fetch plans,
 *   validators, metadata documents, the physical schema);
 * - `statement_shapes`: compiled SQL per statement shape of the direct read path;
 * - `permissions`: the compiled policy index per subject (app/security/permission_cache.ts);
 * - `token_verification`: verified access tokens (app/oauth/token_verifier.ts).
 */
export interface CacheStat {
  hits: number
  misses: number
}

export const cacheStats = {
  model: { hits: 0, misses: 0 },
  statement_shapes: { hits: 0, misses: 0 },
  permissions: { hits: 0, misses: 0 },
  token_verification: { hits: 0, misses: 0 },
} satisfies Record<string, CacheStat>

/**
 * The Reports add-on's `svc.reports.*` properties (one line in app/settings/properties.ts):
 * the bounds of every run (README "Reports API", "Limits").
 */
import { parseSize } from '../files/size.js'
import type { PropertyDefinition } from '../settings/properties.js'

export const REPORT_PROPERTIES: PropertyDefinition[] = [
  {
    name: 'svc.reports.max-rows',
    type: 'int',
    default: 100000,
    description: 'Most rows one report run may read over all its bands (more: 413, nothing sent)',
  },
  {
    name: 'svc.reports.max-output-size',
    type: 'string',
    default: '50MB',
    description: 'Largest document one report run may produce (bytes, or with KB/MB/GB; more: 413)',
    check: (value) => (Number.isNaN(parseSize(value)) ? 'must be a size such as 50MB' : null),
  },
  {
    name: 'svc.reports.timeout-seconds',
    type: 'int',
    default: 60,
    description: 'Longest a report run may take, data and rendering (longer: 503, run aborted)',
  },
  {
    name: 'svc.reports.sql-timeout-seconds',
    type: 'int',
    default: 10,
    description: 'Longest one SQL dataset statement may run (read-only transaction)',
  },
]

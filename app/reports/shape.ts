/**
 * Unknown-key checks of the `reports` section (a misspelt `outputTyp` must not be ignored),
 * at every depth of the band tree.
 */
import { isObject, unknownKeys } from '#definition/shape'
import type { Problem } from '#definition/section'
import { KEYS, SHORTHAND_KEYS } from './store.js'

const REPORT = [
  'id',
  'name',
  'code',
  'group',
  'description',
  'localeNames',
  'restAccess',
  'roles',
  'inputParameters',
  'bands',
  'valueFormats',
  'templates',
]
const GROUP = KEYS.group
const PARAMETER = KEYS.parameter
const DATASET = KEYS.dataset
const BAND = [
  'name',
  'orientation',
  'datasets',
  'computed',
  'transform',
  'children',
  ...SHORTHAND_KEYS,
]
const FORMAT = KEYS.format
const TEMPLATE = [...KEYS.template, 'file']

function items(value: unknown, allowed: readonly string[], path: string, out: Problem[]) {
  if (!Array.isArray(value)) return
  value.forEach((item, i) => {
    if (!isObject(item)) out.push({ path: `${path}[${i}]`, message: 'must be an object' })
    else unknownKeys(item, allowed, `${path}[${i}]`, out)
  })
}

function bands(value: unknown, path: string, out: Problem[]) {
  items(value, BAND, path, out)
  if (!Array.isArray(value)) return
  value.forEach((band, i) => {
    if (!isObject(band)) return
    items(band.datasets, DATASET, `${path}[${i}].datasets`, out)
    bands(band.children, `${path}[${i}].children`, out)
  })
}

export function reportShape(value: unknown, path: string, out: Problem[]) {
  if (!Array.isArray(value)) return
  value.forEach((report, i) => {
    const at = `${path}[${i}]`
    unknownKeys(report, REPORT, at, out)
    if (!isObject(report)) return
    unknownKeys(report.group, GROUP, `${at}.group`, out)
    items(report.inputParameters, PARAMETER, `${at}.inputParameters`, out)
    bands(report.bands, `${at}.bands`, out)
    items(report.valueFormats, FORMAT, `${at}.valueFormats`, out)
    items(report.templates, TEMPLATE, `${at}.templates`, out)
  })
}

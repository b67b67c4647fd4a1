import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/api'
import { fileNameFromDisposition, parameterOfError } from './reports'
import { addBand, bandAt, bandProblemPath, blankBand, errorsUnder, flattenBands, removeBand, reportBody, runParameters } from '../lib/draft'
import type { ReportDefinition } from './types'

describe('fileNameFromDisposition', () => {
  it('reads filename* (UTF-8, percent-encoded) before filename, and the URL-encoded name of upstream (+ = space)', () => {
    expect(fileNameFromDisposition(`attachment; filename="Orders+2024.xlsx"`)).toBe('Orders 2024.xlsx')
    expect(fileNameFromDisposition(`inline; filename="x.csv"; filename*=UTF-8''R%C3%A9sum%C3%A9.csv`)).toBe('Résumé.csv')
    expect(fileNameFromDisposition('attachment; filename=plain.pdf')).toBe('plain.pdf')
    expect(fileNameFromDisposition(null, 'report')).toBe('report')
    expect(fileNameFromDisposition('attachment', 'report')).toBe('report')
  })
})

describe('parameterOfError', () => {
  const err = (details: string) => new ApiError(400, { error: 'Run report error', details }, '')
  it('names the alias the details mention (whole words, the longest match)', () => {
    expect(parameterOfError(err("Parameter 'since' is not a date: 2024-13-01"), ['since', 'author'])).toBe('since')
    expect(parameterOfError(err('Required parameter dateFrom is missing'), ['date', 'dateFrom'])).toBe('dateFrom')
    expect(parameterOfError(err('Template with code X not found'), ['code2'])).toBeUndefined()
    expect(parameterOfError(new Error('since'), ['since'])).toBeUndefined()
  })
})

const report = (): ReportDefinition => ({
  id: 'r1',
  name: ' Orders ',
  code: '',
  restAccess: true,
  roles: [],
  inputParameters: [{ name: 'From', alias: ' from ', type: 'DATE', defaultValue: '', required: true }],
  bands: [{ ...blankBand('Orders'), children: [blankBand('Lines')] }, blankBand('Totals')],
  valueFormats: [{ name: '', format: 'x' }],
  templates: [{ code: 'DEFAULT', outputType: 'XLSX', fileName: 't.xlsx', fileKey: 'reports/abc.xlsx', sha256: 'abc', size: 10, default: true }],
})

describe('the band tree of a draft', () => {
  it('adds a child under a band and answers its path; removes a band with its children', () => {
    const r = report()
    const added = addBand(r.bands, [0, 0])
    expect(added.path).toEqual([0, 0, 0])
    expect(bandAt(added.bands, added.path)?.name).toBe('Band1')
    expect(flattenBands(added.bands).map((b) => `${'-'.repeat(b.depth)}${b.band.name}`)).toEqual(['Orders', '-Lines', '--Band1', 'Totals'])
    expect(flattenBands(removeBand(added.bands, [0])).map((b) => b.band.name)).toEqual(['Totals'])
    const top = addBand(added.bands, null)
    expect(top.path).toEqual([2])
    expect(bandAt(top.bands, [2])?.name).toBe('Band2')
  })

  it('maps a band to its problem path and picks the problems under it', () => {
    expect(bandProblemPath([0, 1, 2])).toBe('bands[0].children[1].children[2]')
    const errors = { 'bands[0].children[1].name': 'bad name', 'bands[0].children[1].datasets[0].entity': 'unknown', 'bands[0].name': 'other' }
    expect(errorsUnder(errors, 'bands[0].children[1]')).toEqual({ name: 'bad name', 'datasets[0].entity': 'unknown' })
  })
})

describe('reportBody', () => {
  it('trims, leaves empty optionals out and drops the stored file facts (a template without file keeps its file)', () => {
    const body = reportBody(report())
    expect(body.name).toBe('Orders')
    expect('code' in body).toBe(false)
    expect(body.inputParameters).toEqual([{ name: 'From', alias: 'from', type: 'DATE', required: true, hidden: false }])
    expect(body.valueFormats).toEqual([])
    expect(JSON.parse(JSON.stringify(body.templates))).toEqual([{ code: 'DEFAULT', outputType: 'XLSX', fileName: 't.xlsx', default: true }])
  })
})

describe('runParameters', () => {
  it('sends typed values by alias, lists as values, and leaves empty ones to the defaults', () => {
    const params = [
      { name: 'A', alias: 'a', type: 'TEXT' as const },
      { name: 'B', alias: 'b', type: 'ENTITY_LIST' as const },
      { name: 'C', alias: 'c', type: 'NUMERIC' as const },
    ]
    expect(runParameters(params, { a: 'x', b: ['1', '2'], c: '' })).toEqual([
      { name: 'a', value: 'x' },
      { name: 'b', values: ['1', '2'] },
    ])
  })
})

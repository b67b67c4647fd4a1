import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ChangeResult } from '../../../lib/admin'
import { DefinitionDiff } from './definition_diff'
import { groupChanges, parseChangeLine } from './change_lines'

afterEach(cleanup)

const book = (extra: object[] = [], length = 255) => ({
  name: 'shop_Book',
  attributes: [{ name: 'title', type: 'string', length }, { name: 'isbn', type: 'string' }, ...extra],
})

const stored = {
  formatVersion: 1,
  entities: [book(), { name: 'shop_Old', attributes: [] }],
  enums: [{ name: 'shop.Genre', values: [{ name: 'NOVEL', id: 'N' }] }],
}
const incoming = {
  formatVersion: 1,
  prune: true,
  entities: [book([{ name: 'subtitle', type: 'string', length: 80 }], 300), { name: 'shop_Note', attributes: [] }],
  enums: [{ name: 'shop.Genre', values: [{ name: 'NOVEL', id: 'N' }, { name: 'POEM', id: 'P' }] }],
}

const plan: ChangeResult = {
  status: 'dry-run',
  changes: [
    'enum shop.Genre: changed',
    'entity shop_Book: attribute title changed, attribute subtitle added',
    'entity shop_Note: added',
    'entity shop_Old: removed',
    'client portal: created (a secret is generated)',
  ],
  steps: [
    { kind: 'createTable', target: 'shop_note', description: 'createTable shop_note', sql: ['CREATE TABLE "shop_note" ("id" char(36))'] },
    { kind: 'dropTable', target: 'shop_old', description: 'dropTable shop_old', sql: ['DROP TABLE "shop_old"'] },
  ],
  risks: [{ message: 'dropping table shop_old would lose 3 row(s)', overridable: true, table: 'shop_old', rows: 3 }],
  definitionVersion: 7,
  modelVersion: 4,
}

describe('change lines', () => {
  it('parses each line into section, element, change and details', () => {
    expect(parseChangeLine('entity shop_Book: attribute title changed, attribute subtitle added')).toMatchObject({
      section: 'entities',
      element: 'shop_Book',
      change: 'changed',
      details: [
        { text: 'attribute title changed', change: 'changed' },
        { text: 'attribute subtitle added', change: 'added' },
      ],
    })
    expect(parseChangeLine('resource role reader: deleted (prune)')).toMatchObject({ section: 'resourceRoles', element: 'reader', change: 'removed' })
    expect(parseChangeLine('row-level role own: created')).toMatchObject({ section: 'rowLevelRoles', change: 'added' })
    expect(parseChangeLine('fetchPlan shop_Book/card: added')).toMatchObject({ section: 'fetchPlans', element: 'shop_Book/card' })
    expect(parseChangeLine('client portal: changed resourceRoles, secret')).toMatchObject({
      change: 'changed',
      details: [{ text: 'changed resourceRoles, secret', change: 'changed' }],
    })
    expect(parseChangeLine('setting svc.core.available-locales: set').change).toBe('added')
    expect(parseChangeLine('something new happened')).toMatchObject({ section: 'other' })
    expect(groupChanges(plan.changes).map((s) => [s.label, s.elements.length])).toEqual([
      ['Entities', 3],
      ['Enums', 1],
      ['OAuth clients', 1],
    ])
  })
})

describe('DefinitionDiff', () => {
  it('shows what is added, changed and removed per section, the risks and the SQL', () => {
    render(<DefinitionDiff result={plan} stored={stored} incoming={incoming} />)
    expect(screen.getByTestId('diff-summary').textContent).toMatch(/2 added.*2 changed.*1 removed.*2 SQL statements/)
    const entities = screen.getAllByTestId('diff-section').find((s) => s.dataset.section === 'entities')!
    expect(within(entities).getByRole('heading', { level: 3 }).textContent).toBe('Entities (3)')
    const rows = within(entities).getAllByTestId('diff-element')
    expect(rows.map((r) => [r.dataset.element, r.dataset.change])).toEqual([
      ['shop_Book', 'changed'],
      ['shop_Note', 'added'],
      ['shop_Old', 'removed'],
    ])
    const details = within(rows[0]!).getAllByTestId('diff-detail')
    expect(details.map((d) => d.className)).toEqual(['diff-detail diff-detail--changed', 'diff-detail diff-detail--added'])
    expect(screen.getByTestId('plan-risks').textContent).toContain('would lose 3 row(s)')
    expect(screen.getAllByTestId('plan-sql').map((p) => p.textContent)).toEqual([
      'CREATE TABLE "shop_note" ("id" char(36));',
      'DROP TABLE "shop_old";',
    ])
  })

  it('opens an element to its stored-versus-document diff, changed keys highlighted', async () => {
    const user = userEvent.setup()
    render(<DefinitionDiff result={plan} stored={stored} incoming={incoming} />)
    const bookRow = screen.getAllByTestId('diff-element').find((r) => r.dataset.element === 'shop_Book')!
    const toggle = within(bookRow).getByRole('button', { name: /show details/i })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await user.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const diff = within(bookRow).getByTestId('json-diff')
    const changed = within(diff).getByTestId('diff-changed')
    expect(changed.textContent).toContain('length')
    expect(within(changed).getByText('255').tagName).toBe('DEL')
    expect(within(changed).getByText('300').tagName).toBe('INS')
    expect(within(diff).getByTestId('diff-added').textContent).toContain('subtitle')
    // The unchanged attribute is folded away until asked for.
    expect(diff.textContent).not.toContain('isbn')
    await user.click(within(diff).getByLabelText('Show unchanged keys'))
    expect(diff.textContent).toContain('isbn')

    const removed = screen.getAllByTestId('diff-element').find((r) => r.dataset.element === 'shop_Old')!
    await user.click(within(removed).getByRole('button', { name: /show details/i }))
    expect(within(removed).getByTestId('diff-removed').textContent).toContain('"shop_Old"')
  })

  it('says so when the document changes nothing', () => {
    render(<DefinitionDiff result={{ ...plan, status: 'unchanged', changes: [], steps: [], risks: [] }} />)
    expect(screen.getByTestId('plan-unchanged').textContent).toContain('Nothing to change')
    expect(screen.queryByTestId('definition-diff')).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { bindFilter } from './queries'

describe('bindFilter', () => {
  it('replaces :param values, alone and in lists, at any depth; leaves the rest', () => {
    const filter = {
      conditions: [
        { property: 'status', operator: '=', value: ':status' },
        { group: 'OR', conditions: [{ property: 'name', operator: 'in', value: [':a', 'fixed', ':nope'] }] },
        { property: 'deletedDate', operator: 'isNull' },
      ],
    }
    expect(bindFilter(filter, { status: 'NEW', a: 'x' })).toEqual({
      conditions: [
        { property: 'status', operator: '=', value: 'NEW' },
        { group: 'OR', conditions: [{ property: 'name', operator: 'in', value: ['x', 'fixed', ':nope'] }] },
        { property: 'deletedDate', operator: 'isNull' },
      ],
    })
  })
})

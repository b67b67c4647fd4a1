/**
 * What the documents say against what is true (issue 19 item 8): one Node.js requirement in the
 * README and both package.json files (the root and the console), met by the Node.js running the
 * tests; and no document still says roles are stored but not enforced.
 */
import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'

const read = (path: string) => readFile(app.makePath(path), 'utf8')
const engines = async (path: string) => JSON.parse(await read(path)).engines?.node as string

/** Every Markdown file under `dir` (node_modules left out). */
async function markdown(dir: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(app.makePath(dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...(await markdown(path)))
    else if (entry.name.endsWith('.md')) found.push(path)
  }
  return found
}

test.group('documents', () => {
  test('one Node.js requirement: README, package.json, console-ui/package.json', async ({
    assert,
  }) => {
    const root = await engines('package.json')
    assert.equal(await engines('console-ui/package.json'), root)
    // `Node.js 20.19+, 22.13+ or 24+` <-> `^20.19.0 || ^22.13.0 || >=24`
    const line = /Requirements: Node\.js ((?:\d+(?:\.\d+)?\+(?:, | or )?)+)/.exec(
      await read('README.md')
    )
    assert.isNotNull(line, 'the README states the Node.js versions as `20.19+, 22.13+ or 24+`')
    const minimums = line![1].split(/, | or /).map((v) => v.replace('+', ''))
    const range = minimums
      .map((v, i) => (i < minimums.length - 1 ? `^${v}.0` : `>=${v}`))
      .join(' || ')
    assert.equal(range, root)
    // The Node.js running this test is one of them.
    const [major, minor] = process.versions.node.split('.').map(Number)
    const met = minimums.some((v, i) => {
      const [m, n = 0] = v.split('.').map(Number)
      return i < minimums.length - 1 ? major === m && minor >= n : major >= m
    })
    assert.isTrue(met, `Node.js ${process.versions.node} meets ${root}`)
  })

  test('no document says roles are not enforced yet', async ({ assert }) => {
    const stale =
      /not yet enforced|roles? (?:are|is) stored, not|comes with the security issue|refuses them until then/i
    for (const path of ['README.md', ...(await markdown('app'))]) {
      const text = await read(path)
      assert.notMatch(text, stale, path)
    }
  })

  test('the README documents every Reports route it serves (issue 19 item 10)', async ({
    assert,
  }) => {
    const readme = await read('README.md')
    assert.notMatch(readme, /\*\*Not there yet\*\*/)
    for (const route of [
      '/rest/reports/report`',
      '/rest/reports/report/{id}`',
      '/rest/reports/run/{id}`',
      '/run/code/{code}`',
      '/rest/reports/group/{id}`',
      '/rest/reports/docs/openapi.json`',
    ])
      assert.include(readme, route)
  })
})

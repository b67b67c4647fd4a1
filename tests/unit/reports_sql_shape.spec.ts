/**
 * The shape check of SQL datasets (app/reports/sql_shape.ts): one read-only SELECT, no system
 * tables, and no text that SQLite and PostgreSQL would split differently (each refused case
 * below read system tables through the earlier check on one of the two databases).
 */
import { test } from '@japa/runner'
import { checkSql } from '#reports/sql_shape'

test.group('reports: SQL dataset shape', () => {
  test('accepted: {$self}')
    .with([
      'select name as "name", region as "region" from sec_customer where region = ${region}',
      'with c as (select * from sec_customer) select name as "name" from c where name in ${names}',
      "select 'it''s; delete -- [x] $$ ? \\' as a -- note\r\n from sec_customer;",
      'select count(*) as "n" from sec_order /* a comment */ where total > ${Orders.total}',
    ])
    .run(({ assert }, sql) => {
      assert.isNull(checkSql(sql))
    })

  test('refused: {sql}')
    .with([
      { sql: 'delete from sec_customer', problem: /must be a SELECT/ },
      { sql: 'select 1 as a; select 2 as b', problem: /one statement/ },
      { sql: 'select * from mg_users', problem: /system table 'mg_users'/ },
      { sql: 'select * from "public"."users"', problem: /system table 'users'/ },
      {
        sql: 'with d as (delete from sec_customer returning 1) select * from d',
        problem: /no data-changing/,
      },
      { sql: 'select * from sec_customer for update', problem: /no data-changing/ },
      // PostgreSQL dollar quotes hid the code between two `'` from the old check.
      {
        sql: `select $$'$$ as q, password as "p" from users where 'x' <> $$'$$`,
        problem: /\$tag\$/,
      },
      // SQLite bracket and backtick identifiers, same trick.
      { sql: "select 1 as [x'], password from users as [y']", problem: /\[ is not allowed/ },
      { sql: "select 1 as `x'`, password from users as `y'`", problem: /` is not allowed/ },
      // PostgreSQL E'' strings end elsewhere than the check thought.
      { sql: `select E'\\'' as a, password as "p" from users /*'*/`, problem: /E'/ },
      // PostgreSQL nests block comments and ends `--` comments at \r as well.
      { sql: `select 1 as a /* /* */ ' */ , password as "p" from users /*'*/`, problem: /nested/ },
      { sql: 'select 1 as a -- \r, password as "p" from users', problem: /carriage/ },
      // SQL in a string, run by the database.
      {
        sql: "select query_to_xml('select password from users', true, true, '') as x",
        problem: /function 'query_to_xml'/,
      },
      // knex turns `??` into an identifier taken from a binding (a parameter value).
      { sql: 'select * from ??', problem: /\? is not allowed/ },
      { sql: "select 1 as a from sec_customer where name = 'x", problem: /unterminated/ },
    ])
    .run(({ assert }, { sql, problem }) => {
      const found = checkSql(sql)
      assert.isString(found, sql)
      assert.match(found!, problem)
    })
})

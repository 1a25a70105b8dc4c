/**
 * executeBound: a statement whose values travel as bind parameters, in the EntityManager's
 * transaction, with em.execute's rows and errors. Every kind of value arrives as it was sent.
 */
import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstraintViolationError, executeBound, inTransaction, numberedPlaceholders, pgArray } from '../src/index.js';
import { Widget } from './support/entities.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('db_bound');
});
afterAll(async () => db?.dispose());

describe('numberedPlaceholders', () => {
  it('numbers each ? outside literals, identifiers and comments', () => {
    expect(
      numberedPlaceholders(
        `select ?::uuid, 'what?', E'it\\'s ?', 'it''s ?', "col?" -- a comment?\n, ? /* more? */ , ?`,
        3,
      ),
    ).toBe(`select $1::uuid, 'what?', E'it\\'s ?', 'it''s ?', "col?" -- a comment?\n, $2 /* more? */ , $3`);
  });

  it('refuses a count of values that does not match', () => {
    expect(() => numberedPlaceholders('select ?, ?', 1)).toThrow('the statement has 2 placeholders for 1 values');
  });

  it('reads a lone - or / as text, and a literal or comment left open as running to the end', () => {
    expect(numberedPlaceholders('select ? - ?, ? / ?', 4)).toBe('select $1 - $2, $3 / $4');
    expect(numberedPlaceholders("select ?, 'open ?", 1)).toBe("select $1, 'open ?");
    expect(numberedPlaceholders('select ? -- last ?', 1)).toBe('select $1 -- last ?');
    expect(numberedPlaceholders('select ? /* open ?', 1)).toBe('select $1 /* open ?');
    expect(numberedPlaceholders('??', 2)).toBe('$1$2');
    expect(numberedPlaceholders('select 1', 0)).toBe('select 1');
  });

  it('numbers the hundreds of placeholders of a batch', () => {
    const tuples = Array.from({ length: 300 }, () => '(?::uuid, ?::uuid)').join(', ');
    const expected = Array.from({ length: 300 }, (_, k) => `($${2 * k + 1}::uuid, $${2 * k + 2}::uuid)`).join(', ');
    expect(numberedPlaceholders(`select * from (values ${tuples}) as k(a, b)`, 600)).toBe(
      `select * from (values ${expected}) as k(a, b)`,
    );
  });
});

describe('executeBound', () => {
  it('sends every kind of value as it is', async () => {
    const at = new Date('2026-03-01T09:00:05.123Z');
    const bytes = Buffer.from([0, 1, 2, 0x27, 0x5c, 0xff]);
    const text = `it's "quoted" \\ back\\slash, ? and $1, æøå`;
    const em = db.orm.em.fork();
    const sql = `select ?::text as text, ?::timestamptz as at, ?::bytea as bytes, ?::bigint::text as big, ?::numeric::text as amount,
              ?::boolean as flag, ?::text as nothing, ?::text as missing, ?::jsonb as document, ?::int as count,
              ?::uuid[] as ids, ?::numeric::text as exact`;
    const values = [
      text,
      at,
      bytes,
      9007199254740993n,
      '12345678901234.56',
      false,
      null,
      undefined,
      { a: "it's", b: [1, 2], c: null },
      -7,
      pgArray(['00000000-0000-4000-8000-000000000001']),
      new Decimal('12.345000000000000000001'),
    ];
    const { rows } = await executeBound<Record<string, unknown>>(em, sql, values);
    expect(rows).toEqual([
      {
        text,
        // As the ORM's pool gives a timestamptz (its entities parse it).
        at: '2026-03-01 09:00:05.123+00',
        bytes,
        big: '9007199254740993',
        amount: '12345678901234.56',
        flag: false,
        nothing: null,
        missing: null,
        document: { a: "it's", b: [1, 2], c: null },
        count: -7,
        ids: ['00000000-0000-4000-8000-000000000001'],
        exact: '12.345000000000000000001',
      },
    ]);
    // The same rows as em.execute, which writes the values into the text (and undefined as the word).
    expect(rows).toEqual(
      await em.execute(
        sql,
        values.map((value) => value ?? null),
      ),
    );
  });

  it('writes more values than a Bind message numbers into the text, with the same results', async () => {
    const many = Array.from({ length: 70_000 }, (_, i) => i);
    const { rows } = await executeBound<{ n: number; total: string }>(
      db.orm.em.fork(),
      `select count(*)::int as n, sum(v)::text as total from (values ${many.map(() => '(?::int)').join(', ')}) as t(v)`,
      many,
    );
    expect(rows).toEqual([{ n: 70_000, total: String((69_999 * 70_000) / 2) }]);
  });

  it('refuses a JS array', async () => {
    await expect(executeBound(db.orm.em.fork(), 'select ?::text[]', [['a'] as unknown as string])).rejects.toThrow(
      'pass pgArray(values)',
    );
  });

  it('runs in the transaction: its writes are seen by the ORM there and rolled back with it', async () => {
    const code = `BOUND-${randomUUID().slice(0, 8)}`;
    const id = randomUUID();
    await expect(
      inTransaction(db.orm, async (em) => {
        const inserted = await executeBound<{ id: string }>(
          em,
          'insert into widget (id, code, quantity) values (?, ?, ?) returning id',
          [id, code, 3],
        );
        expect(inserted).toEqual({ rows: [{ id }], affectedRows: 1 });
        expect(await em.findOne(Widget, { code })).toMatchObject({ id, quantity: 3 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db.orm.em.fork().findOne(Widget, { code })).toBeNull();
  });

  it('counts the rows an update changed', async () => {
    const codes = [`BOUND-${randomUUID().slice(0, 8)}`, `BOUND-${randomUUID().slice(0, 8)}`];
    await inTransaction(db.orm, async (em) => {
      for (const code of codes) em.create(Widget, { id: randomUUID(), code, quantity: 1 });
    });
    const result = await inTransaction(db.orm, (em) =>
      executeBound(em, 'update widget set quantity = quantity + ? where code = any(?::text[])', [
        4,
        pgArray([...codes, 'none']),
      ]),
    );
    expect(result).toEqual({ rows: [], affectedRows: 2 });
    expect((await db.orm.em.fork().find(Widget, { code: { $in: codes } })).map((w) => w.quantity)).toEqual([5, 5]);
  });

  it('fails as em.execute does: a unique violation is ALREADY_EXISTS', async () => {
    const code = `BOUND-${randomUUID().slice(0, 8)}`;
    const insert = (em: Parameters<typeof executeBound>[0]) =>
      executeBound(em, 'insert into widget (id, code, quantity) values (?, ?, 1)', [randomUUID(), code]);
    await inTransaction(db.orm, insert);
    const failure = await inTransaction(db.orm, insert).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConstraintViolationError);
    expect(failure).toMatchObject({ reason: 'ALREADY_EXISTS', constraint: 'widget_code_unique' });
  });

  describe('prepared', () => {
    // A text of this test's own (the set of prepared texts is the process's): a tag makes it unique.
    const tag = randomUUID().slice(0, 8);
    const sum = `select ?::int + ?::int as total, '${tag}' as tag`;
    const preparedHere = (em: Parameters<typeof executeBound>[0]) =>
      executeBound<{ statement: string }>(
        em,
        `select statement from pg_prepared_statements where statement like '%' || ? || '%' and statement not like '%pg_prepared_statements%'`,
        [tag],
      );

    it('parses the statement once per connection and gives each call its own values', async () => {
      const totals = await inTransaction(db.orm, async (em) => {
        const results: number[] = [];
        // More calls than the five after which Postgres may keep one generic plan.
        for (let i = 0; i < 8; i++) {
          const { rows } = await executeBound<{ total: number }>(em, sum, [i, 100], { prepared: true });
          results.push(rows[0]!.total);
        }
        expect((await preparedHere(em)).rows).toEqual([
          { statement: `select $1::int + $2::int as total, '${tag}' as tag` },
        ]);
        return results;
      });
      expect(totals).toEqual([100, 101, 102, 103, 104, 105, 106, 107]);
    });

    it('runs again after a call that failed, and a statement not marked stays unprepared', async () => {
      const failing = `select 1 / ?::int as quotient, '${tag}-div' as tag`;
      const division = (em: Parameters<typeof executeBound>[0], by: number) =>
        executeBound<{ quotient: number }>(em, failing, [by], { prepared: true });
      await expect(inTransaction(db.orm, (em) => division(em, 0))).rejects.toThrow('division by zero');
      expect(await inTransaction(db.orm, (em) => division(em, 1))).toEqual({
        rows: [{ quotient: 1, tag: `${tag}-div` }],
        affectedRows: 1,
      });
      const plain = await inTransaction(db.orm, async (em) => {
        await executeBound(em, `select ?::int as n, '${tag}-plain' as tag`, [1]);
        return (await preparedHere(em)).rows.map((row) => row.statement);
      });
      expect(plain.filter((statement) => statement.includes(`${tag}-plain`))).toEqual([]);
    });
  });
});

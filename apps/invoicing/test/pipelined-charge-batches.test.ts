/**
 * The charge consumer lets its next batch start once the running one took its numbers
 * (invoiceCharges' afterNumbering; libs/events BatchPipeline): the next batch then makes its calls
 * while the first writes, and numbers only once the first has committed. Here the first batch is
 * held after numbering (a test transaction locks the audit_log table, which it writes to after the
 * statement that numbers and inserts its invoices), the second is started from afterNumbering as
 * the consumer starts it, and reaches the counter while the first still holds it: both numbered in
 * the charges' order, gapless.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { TestClock, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Buyer } from '../src/domain/directory.js';
import type { InvoicingDeps } from '../src/use-cases/deps.js';
import { type ChargeToInvoice, invoiceCharges } from '../src/use-cases/invoice-charge.js';
import { buyer, charge, countingDirectory } from './support/charges.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

const clock = new TestClock('2026-03-01T09:00:00.000Z');
let database: TestSchema;
let orm: MikroORM;

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_pipelined'));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

/** Transactions of this schema's database waiting for a lock. */
async function waitingTransactions(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where not l.granted and a.datname = current_database()`,
  );
  return rows[0]!.n;
}

it('numbers the next batch after the first, though it reaches the counter while the first still writes', async () => {
  const organizationId = randomUUID();
  const alma = randomUUID();
  const bent = randomUUID();
  const buyers = new Map<string, Buyer>([
    [alma, buyer(alma, 'alma')],
    [bent, buyer(bent, 'bent')],
  ]);
  const deps: InvoicingDeps = { orm, clock, directory: countingDirectory(buyers).directory };
  const toInvoice = (amounts: string[]): ChargeToInvoice[] =>
    amounts.map((amount, index) => ({
      charge: charge(index % 2 === 0 ? alma : bent, amount),
      origin: { organizationId, requestId: randomUUID(), occurredAt: clock.now() },
    }));
  const first = toInvoice(['100.00', '200.00', '300.00']);
  const second = toInvoice(['400.00', '500.00']);

  // Numbered before (at 0 so far): the counter row exists, and the first batch updates it.
  await orm.em
    .getConnection()
    .execute('insert into invoice_number_counter (organization_id, last_number) values (?, 0)', [organizationId]);
  const blocker = new pg.Client({ connectionString: database.databaseUrl });
  await blocker.connect();
  try {
    await blocker.query('begin');
    await blocker.query(`lock table "${database.schema}".audit_log in share mode`);
    const watcher = new pg.Client({ connectionString: database.databaseUrl });
    await watcher.connect();
    let secondBatch: Promise<void> | undefined;
    let counterAtAdmission: Promise<string> | undefined;
    let admissions = 0;
    const firstBatch = inTransaction(orm, (em) =>
      invoiceCharges(deps, em, first, {
        afterNumbering: () => {
          admissions++;
          // Admitted once the first holds the organization's counter row.
          counterAtAdmission ??= watcher
            .query(
              `select 1 from "${database.schema}".invoice_number_counter where organization_id = $1 for update nowait`,
              [organizationId],
            )
            .then(
              (result) => `free (${result.rowCount} rows)`,
              (error: { code?: string }) => (error.code === '55P03' ? 'locked' : `failed: ${String(error)}`),
            );
          secondBatch ??= inTransaction(orm, (next) => invoiceCharges(deps, next, second));
        },
      }),
    );
    try {
      // The first waits to write its audit rows, the second for the first's counter row.
      for (let tries = 0; (await waitingTransactions(watcher)) < 2; tries++) {
        if (tries > 200) throw new Error('the two batches never waited at once');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await watcher.end();
    }
    expect(admissions).toBe(1);
    expect(await counterAtAdmission).toBe('locked');
    await blocker.query('commit');
    await firstBatch;
    await secondBatch;
  } finally {
    await blocker.end();
  }

  const rows = await orm.em.getConnection().execute<{ number: string; total: string }[]>(
    `select i.invoice_number::text as number, i.total::text as total
       from invoice i where i.organization_id = ? order by i.invoice_number`,
    [organizationId],
  );
  // VAT 25 % on every line (the buyers are Danish).
  expect(rows).toEqual([
    { number: '1', total: '125.000000' },
    { number: '2', total: '250.000000' },
    { number: '3', total: '375.000000' },
    { number: '4', total: '500.000000' },
    { number: '5', total: '625.000000' },
  ]);
});

it('lets the next batch in only after the last organization of a batch took its numbers, once', async () => {
  const organizations: string[] = [randomUUID(), randomUUID(), randomUUID()];
  const accountOf = new Map(organizations.map((organization) => [organization, randomUUID()]));
  const buyers = new Map<string, Buyer>([...accountOf.values()].map((id) => [id, buyer(id, `buyer-${id}`)]));
  const { directory } = countingDirectory(buyers);
  const log: string[] = [];
  const deps: InvoicingDeps = {
    orm,
    clock,
    directory: {
      ...directory,
      // Every organization's new invoices are announced just before they are numbered.
      announceAccountsInvoices: async (context, announcements) => {
        log.push(`numbering ${organizations.indexOf(context.organizationId!)}`);
        await directory.announceAccountsInvoices(context, announcements);
      },
    },
  };
  const charges: ChargeToInvoice[] = organizations.map((organizationId) => ({
    charge: charge(accountOf.get(organizationId)!, '100.00'),
    origin: { organizationId, requestId: randomUUID(), occurredAt: clock.now() },
  }));
  await inTransaction(orm, (em) =>
    invoiceCharges(deps, em, charges, { afterNumbering: () => log.push('next batch admitted') }),
  );
  expect(log).toEqual(['numbering 0', 'numbering 1', 'numbering 2', 'next batch admitted']);
});

it('writes what needs no number (the invoiced charges) before it takes the counter', async () => {
  const organizationId = randomUUID();
  const alma = randomUUID();
  const deps: InvoicingDeps = {
    orm,
    clock,
    directory: countingDirectory(new Map<string, Buyer>([[alma, buyer(alma, 'alma')]])).directory,
  };
  const charges: ChargeToInvoice[] = ['100.00', '200.00'].map((amount) => ({
    charge: charge(alma, amount),
    origin: { organizationId, requestId: randomUUID(), occurredAt: clock.now() },
  }));
  await orm.em
    .getConnection()
    .execute('insert into invoice_number_counter (organization_id, last_number) values (?, 0)', [organizationId]);
  const blocker = new pg.Client({ connectionString: database.databaseUrl });
  await blocker.connect();
  const watcher = new pg.Client({ connectionString: database.databaseUrl });
  await watcher.connect();
  try {
    await blocker.query('begin');
    await blocker.query(`lock table "${database.schema}".invoiced_charge in share mode`);
    let numbered = false;
    const batch = inTransaction(orm, (em) =>
      invoiceCharges(deps, em, charges, {
        afterNumbering: () => {
          numbered = true;
        },
      }),
    );
    for (let tries = 0; (await waitingTransactions(watcher)) < 1; tries++) {
      if (tries > 200) throw new Error('the batch never waited for invoiced_charge');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Held on its invoiced charges: not numbered yet, and the counter row is free.
    expect(numbered).toBe(false);
    const counter = await watcher.query(
      `select last_number from "${database.schema}".invoice_number_counter where organization_id = $1 for update nowait`,
      [organizationId],
    );
    expect(counter.rows).toEqual([{ last_number: '0' }]);
    await blocker.query('commit');
    await batch;
    expect(numbered).toBe(true);
  } finally {
    await watcher.end();
    await blocker.end();
  }
  const rows = await orm.em
    .getConnection()
    .execute<{ number: string }[]>(
      'select invoice_number::text as number from invoice where organization_id = ? order by invoice_number',
      [organizationId],
    );
  expect(rows).toEqual([{ number: '1' }, { number: '2' }]);
});

/**
 * A batch of charges does not wait for accounts' answer to its announcement before it takes its
 * numbers and writes (use-cases/invoice-charge.ts issueQueued): the next batch is let in at the
 * numbering, so the call to accounts would otherwise hold up the whole stream. The transaction still
 * commits only once accounts answered, and an announcement refused after the numbers were taken
 * rolls the whole batch back, its numbers with it (announce-invoices.ts).
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { AppError } from '@billing/errors';
import { TestClock, type TestSchema, waitFor } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Buyer, InvoicesOfAccount } from '../src/domain/directory.js';
import type { InvoicingDeps } from '../src/use-cases/deps.js';
import { type ChargeToInvoice, invoiceCharges } from '../src/use-cases/invoice-charge.js';
import { buyer, charge, countingDirectory } from './support/charges.js';
import { openInvoicingSchema } from './support/invoicing-schema.js';

const clock = new TestClock('2026-03-01T09:00:00.000Z');
let database: TestSchema;
let orm: MikroORM;

beforeAll(async () => {
  ({ database, orm } = await openInvoicingSchema('invoicing_announce_while_issuing'));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

/** A directory whose announcements are answered only when the test says so. */
function heldDirectory(buyers: Map<string, Buyer>) {
  const { directory } = countingDirectory(buyers);
  const asked: InvoicesOfAccount[][] = [];
  let answer!: (refusal?: Error) => void;
  const answered = new Promise<Error | undefined>((resolve) => {
    answer = resolve;
  });
  const deps: InvoicingDeps = {
    orm,
    clock,
    directory: {
      ...directory,
      announceAccountsInvoices: async (_context, announcements) => {
        asked.push([...announcements]);
        const refusal = await answered;
        if (refusal) throw refusal;
      },
    },
  };
  return { deps, asked, answer };
}

function toInvoice(organizationId: string, accounts: string[], amounts: string[]): ChargeToInvoice[] {
  return amounts.map((amount, index) => ({
    charge: charge(accounts[index % accounts.length]!, amount),
    origin: { organizationId, requestId: randomUUID(), occurredAt: clock.now() },
  }));
}

/** Whether another transaction holds the lock an insert into this schema's invoice table takes. */
async function invoiceInsertedElsewhere(): Promise<boolean> {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<{ n: number }[]>(
      `select count(*)::int as n from pg_locks l
         join pg_class c on c.oid = l.relation
         join pg_namespace s on s.oid = c.relnamespace
        where s.nspname = ? and c.relname = 'invoice' and l.mode = 'RowExclusiveLock' and l.granted
          and l.pid <> pg_backend_pid()`,
      [database.schema],
    );
  return rows[0]!.n > 0;
}

async function committedInvoices(organizationId: string) {
  return orm.em
    .fork()
    .getConnection()
    .execute<{ number: string; total: string }[]>(
      `select invoice_number::text as number, total::text as total
         from invoice where organization_id = ? order by invoice_number`,
      [organizationId],
    );
}

it('takes its numbers and writes while accounts has not answered, and commits only after the answer', async () => {
  const organizationId = randomUUID();
  const alma = randomUUID();
  const bent = randomUUID();
  const { deps, asked, answer } = heldDirectory(
    new Map([
      [alma, buyer(alma, 'alma')],
      [bent, buyer(bent, 'bent')],
    ]),
  );
  let numbered = false;
  const admitted = () => {
    numbered = true;
  };
  let committed = false;
  const batch = inTransaction(orm, (em) =>
    invoiceCharges(deps, em, toInvoice(organizationId, [alma, bent], ['100.00', '200.00', '300.00']), {
      afterNumbering: admitted,
    }),
  ).then(() => {
    committed = true;
  });

  await waitFor(() => numbered, {
    timeoutMs: 10_000,
    description: 'the batch to take its numbers while its announcement is unanswered',
  });
  // Asked once, for both accounts' new invoices, and still waiting for the answer.
  expect(asked.map((announcements) => announcements.map(({ invoiceIds }) => invoiceIds.length))).toEqual([[2, 1]]);
  // The invoices are inserted in the open transaction (nothing before the numbering writes to the
  // invoice table), and it does not commit before accounts answers.
  await waitFor(invoiceInsertedElsewhere, {
    description: 'the batch to insert its invoices while its announcement is unanswered',
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(committed).toBe(false);
  expect(await committedInvoices(organizationId)).toEqual([]);

  answer();
  await batch;
  // VAT 25 % on every line (the buyers are Danish).
  expect(await committedInvoices(organizationId)).toEqual([
    { number: '1', total: '125.000000' },
    { number: '2', total: '250.000000' },
    { number: '3', total: '375.000000' },
  ]);
});

it('rolls the batch back, numbers included, when accounts refuses its announcement after the numbering', async () => {
  const organizationId = randomUUID();
  const alma = randomUUID();
  const held = heldDirectory(new Map([[alma, buyer(alma, 'alma')]]));
  let numbered = false;
  const admitted = () => {
    numbered = true;
  };
  const batch = inTransaction(orm, (em) =>
    invoiceCharges(held.deps, em, toInvoice(organizationId, [alma], ['100.00', '200.00']), {
      afterNumbering: admitted,
    }),
  );
  const outcome = batch.then(
    () => 'committed',
    (error: unknown) => (error instanceof AppError ? error.reason : String(error)),
  );
  await waitFor(() => numbered, {
    timeoutMs: 10_000,
    description: 'the batch to take its numbers while its announcement is unanswered',
  });
  // The account was deleted meanwhile: accounts answers NOT_FOUND.
  held.answer(AppError.notFound(`Account ${alma} does not exist.`));
  expect(await outcome).toBe('NOT_FOUND');
  expect(await committedInvoices(organizationId)).toEqual([]);

  // The numbers went with the rollback: the next invoice of the organization is number 1.
  const { directory } = countingDirectory(new Map([[alma, buyer(alma, 'alma')]]));
  await inTransaction(orm, (em) =>
    invoiceCharges({ orm, clock, directory }, em, toInvoice(organizationId, [alma], ['50.00'])),
  );
  expect(await committedInvoices(organizationId)).toEqual([{ number: '1', total: '62.500000' }]);
});

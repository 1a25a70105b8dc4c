import type pg from 'pg';

/**
 * The invoice bench's data and checks. The input is the subscriptions schema's outbox after one
 * scheduler run (renewal-seed.ts): the encoded charge.created envelopes, exactly the bytes the
 * relay would publish, in publishing order. The invoicing schema is emptied before every phase.
 */

/** The charge.created envelopes of the subscriptions outbox, in position order, and what they add up to. */
export async function chargeMessages(
  subscriptions: pg.Client,
): Promise<{ messages: Buffer[]; amount: string; lines: number }> {
  const outbox = await subscriptions.query<{ payload: Buffer }>(
    `select payload from outbox where subject = 'subscriptions.charge.created' order by position`,
  );
  const charges = await subscriptions.query<{ amount: string; lines: string }>(
    'select sum(amount)::numeric(20,2)::text as amount, sum(jsonb_array_length(lines))::text as lines from charge',
  );
  return {
    messages: outbox.rows.map((row) => row.payload),
    amount: charges.rows[0]!.amount,
    lines: Number(charges.rows[0]!.lines),
  };
}

const INVOICING_TABLES = [
  'invoice',
  'invoice_line',
  'invoice_number_counter',
  'invoiced_charge',
  'mail_job',
  'credit_application',
  'draft_invoice_line',
  'audit_log',
  'outbox',
  'inbox',
];

/** Empties everything a phase writes in the invoicing schema. */
export async function resetInvoicing(invoicing: pg.Client): Promise<void> {
  await invoicing.query(`truncate ${INVOICING_TABLES.join(', ')}`);
}

export interface InvoiceCounts {
  /** Issued invoices (a number, not pending). */
  invoices: number;
  pending: number;
  lines: number;
  /** Sums over the issued invoices, as Postgres prints them: the same for both sides or a side is wrong. */
  subtotal: string;
  vat: string;
  total: string;
  /** Organizations whose numbers are not exactly 1..n once each, with the counter at n. */
  numberingProblems: string[];
  invoicedCharges: number;
  issuedEvents: number;
  mailJobs: number;
  auditRows: number;
  inboxRows: number;
  /** Average size of an invoice.issued outbox payload and of an invoice line's `pricing`, in bytes. */
  issuedEventBytes: number;
  pricingBytes: number;
}

/** What a phase wrote, read back after it. */
export async function invoiceCounts(client: pg.Client): Promise<InvoiceCounts> {
  const one = async (sql: string) => (await client.query(sql)).rows[0] as Record<string, string | null>;
  const invoices = await one(
    `select count(*) filter (where status <> 'pending' and invoice_number is not null) as issued,
       count(*) filter (where status = 'pending') as pending,
       sum(subtotal)::numeric(20,2)::text as subtotal, sum(vat)::numeric(20,2)::text as vat,
       sum(total)::numeric(20,2)::text as total
     from invoice`,
  );
  const lines = await one('select count(*) as n, avg(octet_length(pricing::text))::text as bytes from invoice_line');
  const numbering = await client.query<{
    organization_id: string;
    n: string;
    d: string;
    lo: string;
    hi: string;
    last: string | null;
  }>(
    `select i.organization_id, count(*) as n, count(distinct i.invoice_number) as d, min(i.invoice_number) as lo,
       max(i.invoice_number) as hi, max(c.last_number) as last
     from invoice i left join invoice_number_counter c on c.organization_id = i.organization_id
     where i.invoice_number is not null group by i.organization_id`,
  );
  const outbox = await one(
    `select count(*) as n, avg(octet_length(payload))::text as bytes from outbox where subject = 'invoicing.invoice.issued'`,
  );
  const count = async (table: string) => Number((await one(`select count(*) as n from ${table}`)).n);
  const numberingProblems = numbering.rows
    .filter((row) => !(row.n === row.d && row.lo === '1' && row.hi === row.n && row.last === row.n))
    .map(
      (row) => `${row.organization_id}: ${row.n} invoices, ${row.d} numbers ${row.lo}..${row.hi}, counter ${row.last}`,
    );
  return {
    invoices: Number(invoices.issued),
    pending: Number(invoices.pending),
    lines: Number(lines.n),
    subtotal: invoices.subtotal ?? '0',
    vat: invoices.vat ?? '0',
    total: invoices.total ?? '0',
    numberingProblems,
    invoicedCharges: await count('invoiced_charge'),
    issuedEvents: Number(outbox.n),
    mailJobs: await count('mail_job'),
    auditRows: await count(`audit_log where action = 'invoice.issue'`),
    inboxRows: await count('inbox'),
    issuedEventBytes: Math.round(Number(outbox.bytes ?? 0)),
    pricingBytes: Math.round(Number(lines.bytes ?? 0)),
  };
}

/** Why a phase's rows are not N issued invoices of these charges; empty when they are. */
export function invoiceProblems(
  counts: InvoiceCounts,
  expected: { invoices: number; lines: number; amount: string },
): string[] {
  const problems: string[] = [...counts.numberingProblems];
  const check = (what: string, actual: number | string, wanted: number | string) => {
    if (actual !== wanted) problems.push(`${what}: ${actual}, expected ${wanted}`);
  };
  check('issued invoices', counts.invoices, expected.invoices);
  check('pending invoices', counts.pending, 0);
  check('invoice lines', counts.lines, expected.lines);
  check('invoiced charges', counts.invoicedCharges, expected.invoices);
  check('invoice.issued outbox rows', counts.issuedEvents, expected.invoices);
  check('mail jobs', counts.mailJobs, expected.invoices);
  check('invoice.issue audit rows', counts.auditRows, expected.invoices);
  check('inbox rows', counts.inboxRows, expected.invoices);
  check('invoiced subtotal (sum of the charges)', counts.subtotal, expected.amount);
  return problems;
}

import type pg from 'pg';

/** What every seeded invoice owes: 125.00 DKK (12500 in the gateway's minor unit). */
export const INVOICE_AMOUNT = '125.00';
export const INVOICE_AMOUNT_MINOR = 12_500n;

/**
 * Empties the payments tables (every table of the schema but the migrations') and seeds `count`
 * due card invoices of one organization on the real clock, each of its own account with one
 * active cardgw_a card (payment method pm_card_visa of the fake gateway): the rows the
 * invoice.issued consumer would have taken in.
 */
export async function seedDueCardInvoices(
  client: pg.Client,
  schema: string,
  organizationId: string,
  count: number,
  dueAt: Date,
): Promise<void> {
  const { rows } = await client.query<{ tablename: string }>(
    `select tablename from pg_tables where schemaname = $1 and tablename <> 'mikro_orm_migrations'`,
    [schema],
  );
  await client.query(`truncate ${rows.map((row) => `"${row.tablename}"`).join(', ')}`);
  await client.query(
    `with accounts as (select gen_random_uuid() as id, n from generate_series(1, $2::int) n),
     cards as (
       insert into payment_card (id, organization_id, account_id, active, brand, last4, month, year, name,
         gateway, gateway_id, gateway_customer, created_at, updated_at, version, expiry_notice_month)
       select gen_random_uuid(), $1, id, true, 'visa', '4242', 8, 2031, 'Bench', 'cardgw_a', 'pm_card_visa', null,
         $3, $3, 1, null from accounts
     )
     insert into invoice_payment (invoice_id, organization_id, account_id, invoice_number, amount, currency, status,
       test_clock, next_attempt_at, first_attempt_at, attempts_made, created_at, updated_at)
     select gen_random_uuid(), $1, id, n::text, $4, 'DKK', 'pending', false, $3, null, 0, $3, $3 from accounts`,
    [organizationId, count, dueAt, INVOICE_AMOUNT],
  );
  await client.query('analyze payment_card; analyze invoice_payment');
}

export interface ChargeCounts {
  attempts: number;
  succeeded: number;
  invoicesAttempted: number;
  paid: number;
  settled: number;
  attemptIds: string[];
}

/** What the payments side wrote: attempts (their ids are the gateway's idempotency keys) and invoices. */
export async function chargeCounts(client: pg.Client): Promise<ChargeCounts> {
  const { rows } = await client.query<{
    attempts: string;
    succeeded: string;
    invoices: string;
    settled: string;
  }>(
    `select count(*) as attempts, count(*) filter (where outcome = 'succeeded') as succeeded,
       count(distinct invoice_id) as invoices, count(settled_at) as settled from payment_attempt`,
  );
  const paid = await client.query<{ paid: string }>(
    `select count(*) as paid from invoice_payment where status = 'paid'`,
  );
  const ids = await client.query<{ id: string }>('select id from payment_attempt');
  const row = rows[0]!;
  return {
    attempts: Number(row.attempts),
    succeeded: Number(row.succeeded),
    invoicesAttempted: Number(row.invoices),
    paid: Number(paid.rows[0]!.paid),
    settled: Number(row.settled),
    attemptIds: ids.rows.map((id) => id.id),
  };
}

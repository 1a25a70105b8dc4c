import type pg from 'pg';

/**
 * The renewal bench's data: every subscription is ACTIVE on monthly forward-charging terms, in its
 * first period since BASE (10:00 in Copenhagen, winter time) and due for its renewal at RENEWAL
 * (10:00 summer time: the DST change lies between them). Renewing it makes one charge for
 * RENEWAL..NEXT, one charge.created and one subscription.changed ('renewed').
 *
 * Everything is derived from the subscription's index, so every phase gets the same rows:
 * - ORGANIZATIONS organizations, each with three plans of one monthly DKK term (49.95, 100.00, 249.00);
 * - two subscriptions per account (index / 2), on different terms, quantities 1-10;
 * - every fifth account has a contract on its first subscription's terms with one tier (10 % from
 *   quantity 5, exclusive), fixed into that subscription's `contract` column as activation left it.
 */
export const BASE = new Date('2026-03-15T09:00:00Z');
export const RENEWAL = new Date('2026-04-15T08:00:00Z');
export const NEXT_RENEWAL = new Date('2026-05-15T08:00:00Z');
export const TIME_ZONE = 'Europe/Copenhagen';
export const ORGANIZATIONS = 4;
export const EVENTS_PER_RENEWAL = 2;

/** Plans, terms, and the contracts (with tiers) of the accounts of `maxSubscriptions` subscriptions. */
export async function seedCatalog(client: pg.Client, maxSubscriptions: number): Promise<void> {
  await client.query(
    `insert into plan (id, organization_id, name, code, description, collect_vat, vat_type, created_at, updated_at)
     select md5('plan:' || o || ':' || p)::uuid, md5('org:' || o)::uuid, name, code, '', true, 'services', $1, $1
     from generate_series(0, $2 - 1) o,
          (values (0, 'Basic', 'basic'), (1, 'Pro', 'pro'), (2, 'Enterprise', 'enterprise')) v(p, name, code)`,
    [BASE, ORGANIZATIONS],
  );
  await client.query(
    `insert into plan_terms (id, organization_id, plan_id, code, interval_type, interval_count, price, currency,
       backwards_charging, active, revenue_group, created_at, updated_at)
     select md5('terms:' || o || ':' || p)::uuid, md5('org:' || o)::uuid, md5('plan:' || o || ':' || p)::uuid,
       'monthly', 'month', 1, price, 'DKK', false, true, null, $1, $1
     from generate_series(0, $2 - 1) o, (values (0, 49.95), (1, 100.00), (2, 249.00)) v(p, price)`,
    [BASE, ORGANIZATIONS],
  );
  const accounts = Math.ceil(maxSubscriptions / 2);
  await client.query(
    `insert into contract (id, organization_id, account_id, plan_terms_id, start_date, end_date, commitment_length,
       exclusive_tiers, created_at, updated_at)
     select md5('contract:' || a)::uuid, md5('org:' || a % $2)::uuid, md5('account:' || a)::uuid,
       md5('terms:' || a % $2 || ':' || (2 * a) % 3)::uuid, '2026-01-01', null, 12, true, $1, $1
     from generate_series(0, $3 - 1) a where a % 5 = 0`,
    [BASE, ORGANIZATIONS, accounts],
  );
  await client.query(
    `insert into contract_tier (id, organization_id, contract_id, minimum_quantity, maximum_quantity, discount,
       discount_type, created_at, updated_at)
     select md5('tier:' || a)::uuid, md5('org:' || a % $2)::uuid, md5('contract:' || a)::uuid, 5, null, 10,
       'percentage', $1, $1
     from generate_series(0, $3 - 1) a where a % 5 = 0`,
    [BASE, ORGANIZATIONS, accounts],
  );
  for (const table of ['plan', 'plan_terms', 'contract', 'contract_tier']) await client.query(`analyze ${table}`);
}

/**
 * Empties what a phase writes (charges, outbox, subscriptions) and inserts `count` due
 * subscriptions in one statement, then refreshes the planner's statistics (as autovacuum would).
 */
export async function seedDueSubscriptions(client: pg.Client, count: number): Promise<void> {
  await client.query('truncate charge, outbox, subscription');
  await client.query(
    `insert into subscription (id, organization_id, account_id, plan_terms_id, quantity, override_price, status,
       time_zone, on_test_clock, start_date, original_start_date, base_renewal_date, period_n, charged_through,
       last_renewal_date, next_renewal_date, end_date, cancellation_type, cancel_at, scheduled_change, since,
       pending_lines, contract, due_at, collection_method, group_on_invoice, is_auto_renew_enabled, payment_terms,
       pre_renewal_days_offset, pre_renewal_invoicing, po_number, invoice_supplement, reference_person,
       account_reference_person, case_number, churn_reason_id, custom_churn_reason, custom_fields, created_at,
       updated_at)
     select md5('subscription:' || i)::uuid, md5('org:' || a % $4)::uuid, md5('account:' || a)::uuid,
       md5('terms:' || a % $4 || ':' || i % 3)::uuid, 1 + (i * 7 + i / 10) % 10, null, 'active',
       $5, false, $1, $1, $1, 0, $1,
       $1, $2, null, null, null, null, null,
       '[]', case when i % 2 = 0 and a % 5 = 0 then jsonb_build_object(
         'uuid', md5('contract:' || a)::uuid, 'exclusive_tiers', true, 'tiers', jsonb_build_array(
         jsonb_build_object('minimum_quantity', 5, 'maximum_quantity', null, 'discount', '10.00',
         'discount_type', 'percentage'))) end,
       $2, 'invoice', false, true, null,
       0, false, 'PO-' || a, null, '',
       '', '', null, null, '{}', $1,
       $1
     from generate_series(0, $3 - 1) i, lateral (select i / 2 as a) account`,
    [BASE, RENEWAL, count, ORGANIZATIONS, TIME_ZONE],
  );
  await client.query('analyze subscription');
}

export interface PhaseCounts {
  charges: number;
  /** Sum of the charges' amounts, as Postgres prints it: the same for both sides or a side is wrong. */
  amount: string;
  chargeCreated: number;
  subscriptionChanged: number;
  /** Subscriptions whose columns show the renewal: period 1 from RENEWAL, next renewal and due at NEXT_RENEWAL. */
  renewed: number;
  /** Average size of a charge's `lines` JSON and of an outbox payload per subject, in bytes. */
  linesBytes: number;
  chargeCreatedBytes: number;
  subscriptionChangedBytes: number;
}

/** What a phase wrote, read back after it. */
export async function phaseCounts(client: pg.Client): Promise<PhaseCounts> {
  const charges = await client.query<{ n: string; amount: string | null; lines: string | null }>(
    'select count(*) as n, sum(amount)::text as amount, avg(octet_length(lines::text))::text as lines from charge',
  );
  const outbox = await client.query<{ subject: string; n: string; bytes: string }>(
    'select subject, count(*) as n, avg(octet_length(payload))::text as bytes from outbox group by subject',
  );
  const renewed = await client.query<{ n: string }>(
    `select count(*) as n from subscription
     where status = 'active' and period_n = 1 and last_renewal_date = $1 and charged_through = $1
       and next_renewal_date = $2 and due_at = $2`,
    [RENEWAL, NEXT_RENEWAL],
  );
  const subject = (name: string) => outbox.rows.find((row) => row.subject === `subscriptions.${name}`);
  return {
    charges: Number(charges.rows[0]!.n),
    amount: charges.rows[0]!.amount ?? '0',
    chargeCreated: Number(subject('charge.created')?.n ?? 0),
    subscriptionChanged: Number(subject('subscription.changed')?.n ?? 0),
    renewed: Number(renewed.rows[0]!.n),
    linesBytes: Math.round(Number(charges.rows[0]!.lines ?? 0)),
    chargeCreatedBytes: Math.round(Number(subject('charge.created')?.bytes ?? 0)),
    subscriptionChangedBytes: Math.round(Number(subject('subscription.changed')?.bytes ?? 0)),
  };
}

/** Why a phase's rows are not the N renewals they must be; empty when they are. */
export function countProblems(counts: PhaseCounts, expected: number): string[] {
  const problems: string[] = [];
  const check = (what: string, actual: number) => {
    if (actual !== expected) problems.push(`${what}: ${actual}, expected ${expected}`);
  };
  check('charges', counts.charges);
  check('charge.created outbox rows', counts.chargeCreated);
  check('subscription.changed outbox rows', counts.subscriptionChanged);
  check('renewed subscriptions', counts.renewed);
  return problems;
}

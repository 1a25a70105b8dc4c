import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/**
 * The baseline of the renewal bench: the smallest correct raw-SQL program (pg, no ORM, no engine)
 * that writes the rows the scheduler writes for the bench's data (renewals of active monthly
 * forward subscriptions, see renewal-seed.ts), batch by batch, one transaction per batch:
 *
 * 1. the scheduler's claim: due rows, oldest first, `FOR UPDATE SKIP LOCKED`, every column;
 * 2. the batch's terms prices in one query;
 * 3. one multi-row insert of the charges: the same columns, the same amounts (price, the fixed
 *    contract's tier, rounding half up), a `lines` JSON with the engine's keys;
 * 4. one multi-row insert of the outbox rows: the same count and subjects, payloads of the sizes
 *    the scheduler's envelopes have (measured in the same run);
 * 5. one multi-row update of the columns a renewal changes.
 *
 * It knows nothing the engine knows beyond these rows: no other statuses, intervals or changes.
 */
export interface BaselineWork {
  now: Date;
  batchSize: number;
  /** Outbox payload sizes in bytes, per event, as the scheduler's envelopes are. */
  payloadBytes: { chargeCreated: number; subscriptionChanged: number };
}

interface ClaimedRow {
  id: string;
  organization_id: string;
  account_id: string;
  plan_terms_id: string;
  quantity: number;
  time_zone: string;
  next_renewal_date: Date;
  contract: { tiers: { minimum_quantity: number; maximum_quantity: number | null; discount: string }[] } | null;
}

interface TermsRow {
  id: string;
  plan_id: string;
  price: string;
  currency: string;
}

// The scheduler's claim (processDueBatch), every column as the ORM selects them.
const CLAIM = `select s0.* from subscription as s0
  where s0.on_test_clock = false and s0.due_at <= $1
  order by s0.due_at asc, s0.id asc limit $2 for update skip locked`;

const INSERT_CHARGES = `insert into charge (id, organization_id, subscription_id, account_id, kind, period_start,
    change_key, due_at, currency, amount, lines, credit_all_invoices, created_at)
  select id, organization_id, subscription_id, account_id, 'renewal', period_start, '', period_start, currency,
    amount, lines, false, $9
  from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::timestamptz[], $6::text[], $7::numeric[],
    $8::jsonb[]) as c(id, organization_id, subscription_id, account_id, period_start, currency, amount, lines)`;

const INSERT_OUTBOX = `insert into outbox (id, subject, payload, created_at, published_at, attempts, last_error)
  select id, subject, payload, $4, null, 0, null
  from unnest($1::uuid[], $2::text[], $3::bytea[]) as o(id, subject, payload)`;

// Monthly terms: the next renewal is the same local time one calendar month on (Postgres clamps
// month ends like the engine does).
const UPDATE_SUBSCRIPTIONS = `update subscription set period_n = period_n + 1,
    charged_through = next_renewal_date, last_renewal_date = next_renewal_date,
    next_renewal_date = ((next_renewal_date at time zone time_zone) + interval '1 month') at time zone time_zone,
    due_at = ((next_renewal_date at time zone time_zone) + interval '1 month') at time zone time_zone,
    updated_at = $2
  where id = any($1::uuid[])`;

/** Renews everything due up to `work.now`, batch after batch; returns the number renewed. */
export async function baselineRenewAll(pool: pg.Pool, work: BaselineWork): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await baselineBatch(pool, work);
    total += claimed;
    if (claimed < work.batchSize) return total;
  }
}

async function baselineBatch(pool: pg.Pool, work: BaselineWork): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<ClaimedRow>(CLAIM, [work.now, work.batchSize]);
    if (rows.length > 0) await writeRenewals(client, rows, work);
    await client.query('commit');
    return rows.length;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function writeRenewals(client: pg.PoolClient, rows: ClaimedRow[], work: BaselineWork): Promise<void> {
  const termsIds = [...new Set(rows.map((row) => row.plan_terms_id))];
  const terms = await client.query<TermsRow>(
    'select id, plan_id, price::text as price, currency from plan_terms where id = any($1::uuid[])',
    [termsIds],
  );
  const termsById = new Map(terms.rows.map((row) => [row.id, row]));
  const charge = { ids: [] as string[], periodStarts: [] as Date[], currencies: [] as string[] };
  const amounts: string[] = [];
  const lines: string[] = [];
  const outbox = { ids: [] as string[], subjects: [] as string[], payloads: [] as Buffer[] };
  for (const row of rows) {
    const terms = termsById.get(row.plan_terms_id)!;
    const price = priceOf(terms.price, row.quantity, row.contract);
    const chargeId = randomUUID();
    const line = renewalLine(row, terms, price);
    charge.ids.push(chargeId);
    charge.periodStarts.push(row.next_renewal_date);
    charge.currencies.push(terms.currency);
    amounts.push(price.amount);
    lines.push(line);
    outbox.ids.push(randomUUID(), randomUUID());
    outbox.subjects.push('subscriptions.charge.created', 'subscriptions.subscription.changed');
    outbox.payloads.push(
      payload(work.payloadBytes.chargeCreated, chargeId, line),
      payload(work.payloadBytes.subscriptionChanged, row.id, line),
    );
  }
  await client.query(INSERT_CHARGES, [
    charge.ids,
    rows.map((row) => row.organization_id),
    rows.map((row) => row.id),
    rows.map((row) => row.account_id),
    charge.periodStarts,
    charge.currencies,
    amounts,
    lines,
    work.now,
  ]);
  await client.query(INSERT_OUTBOX, [outbox.ids, outbox.subjects, outbox.payloads, work.now]);
  await client.query(UPDATE_SUBSCRIPTIONS, [rows.map((row) => row.id), work.now]);
}

interface BaselinePrice {
  unitPrice: string;
  discountedUnitPrice: string;
  discount: string | null;
  amount: string;
}

/**
 * Unit price (numeric(20, 6) text) × quantity with the fixed contract's first tier as a percentage,
 * rounded half up to øre, in integers: units of 1e-10 after the discount.
 */
function priceOf(price: string, quantity: number, contract: ClaimedRow['contract']): BaselinePrice {
  const micros = BigInt(price.replace('.', ''));
  const tier = contract?.tiers[0];
  const applies =
    tier !== undefined &&
    quantity >= tier.minimum_quantity &&
    (tier.maximum_quantity === null || quantity <= tier.maximum_quantity);
  const discountHundredths = applies ? BigInt(tier.discount.replace('.', '')) : 0n;
  const unit = micros * (10_000n - discountHundredths); // 1e-10
  const amountCents = (unit * BigInt(quantity) + 50_000_000n) / 100_000_000n;
  return {
    unitPrice: decimal(micros, 6),
    discountedUnitPrice: decimal(unit, 10),
    discount: applies ? tier.discount : null,
    amount: decimal(amountCents, 2),
  };
}

function decimal(value: bigint, scale: number): string {
  const digits = value.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** 'YYYY-MM-DD' of `instant` in `timeZone` (en-CA formats ISO dates). */
function localDay(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** The local day before the same day of the next month (clamped): the period's last day. */
function periodLastDay(from: string): string {
  const [year, month, day] = from.split('-').map(Number) as [number, number, number];
  const lastOfNext = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const next = Date.UTC(year, month, Math.min(day, lastOfNext));
  return new Date(next - 86_400_000).toISOString().slice(0, 10);
}

/** The charge's `lines`: one renewal line with the engine's keys (ChargeLineRecord). */
function renewalLine(row: ClaimedRow, terms: TermsRow, price: BaselinePrice): string {
  const from = localDay(row.next_renewal_date, row.time_zone);
  const to = periodLastDay(from);
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  return JSON.stringify([
    {
      kind: 'renewal',
      terms: terms.id,
      plan: terms.plan_id,
      currency: terms.currency,
      date_from: from,
      date_to: to,
      days,
      period_days: days,
      period_date_from: from,
      period_date_to: to,
      quantity: row.quantity,
      unit_price: price.unitPrice,
      price_source: 'terms',
      tiers_applied: price.discount
        ? [
            {
              minimum_quantity: row.contract!.tiers[0]!.minimum_quantity,
              maximum_quantity: row.contract!.tiers[0]!.maximum_quantity,
              discount: price.discount,
              discount_type: 'percentage',
              amount_off_per_unit: price.discount,
            },
          ]
        : [],
      discounted_unit_price: price.discountedUnitPrice,
      amount: price.amount,
    },
  ]);
}

/** An outbox payload of `size` bytes: the event's own data, repeated (no protobuf: no engine). */
function payload(size: number, id: string, line: string): Buffer {
  const buffer = Buffer.alloc(size);
  buffer.fill(`${id}${line}`);
  return buffer;
}

import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { decodeEnvelope } from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';
import { changeScope } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionEntity } from '../src/db/entities/subscription.entity.js';
import { runEngine } from '../src/use-cases/subscriptions/persist-outcome.js';
import { processAllDue } from '../src/use-cases/subscriptions/process-due.js';
import { type EngineDatabase, engineDatabase } from './support/engine-database.js';

// 10:00 in Copenhagen (summer time); the periods below started in winter time.
const NOW = new Date('2026-04-15T08:00:00Z');
const CONTEXT = { requestId: 'scheduler-test', clientSystem: 'scheduler' };
const ACCOUNT = '00000000-0000-4000-8000-00000000000a';
const OTHER_ACCOUNT = '00000000-0000-4000-8000-00000000000b';

interface Catalog {
  organizationId: string;
  plan: string;
  monthly: string;
  backwards: string;
  premium: string;
  contract: string;
  changeId: string;
}

/** One organization's catalog, a contract with a 10 % tier, and one due subscription per case (labelled by po_number). */
async function seedCases(orm: MikroORM, organizationId: string, onTestClock: boolean): Promise<Catalog> {
  const db = orm.em.getConnection();
  const c: Catalog = {
    organizationId,
    plan: randomUUID(),
    monthly: randomUUID(),
    backwards: randomUUID(),
    premium: randomUUID(),
    contract: randomUUID(),
    changeId: randomUUID(),
  };
  await db.execute(
    `insert into plan (id, organization_id, name, code, description, collect_vat, vat_type, created_at, updated_at)
     values (?, ?, 'Plan', 'plan', '', true, 'services', '2026-01-01', '2026-01-01')`,
    [c.plan, organizationId],
  );
  for (const [id, code, price, backwards] of [
    [c.monthly, 'monthly', '100.00', false],
    [c.backwards, 'backwards', '30.00', true],
    [c.premium, 'premium', '250.00', false],
  ] as const) {
    await db.execute(
      `insert into plan_terms (id, organization_id, plan_id, code, interval_type, interval_count, price, currency,
         backwards_charging, active, created_at, updated_at)
       values (?, ?, ?, ?, 'month', 1, ?, 'DKK', ?, true, '2026-01-01', '2026-01-01')`,
      [id, organizationId, c.plan, code, price, backwards],
    );
  }
  await db.execute(
    `insert into contract (id, organization_id, account_id, plan_terms_id, start_date, end_date, commitment_length,
       exclusive_tiers, created_at, updated_at)
     values (?, ?, ?, ?, '2026-01-01', null, 0, true, '2026-01-01', '2026-01-01')`,
    [c.contract, organizationId, ACCOUNT, c.monthly],
  );
  await db.execute(
    `insert into contract_tier (id, organization_id, contract_id, minimum_quantity, maximum_quantity, discount,
       discount_type, created_at, updated_at)
     values (?, ?, ?, 5, null, 10, 'percentage', '2026-01-01', '2026-01-01')`,
    [randomUUID(), organizationId, c.contract],
  );
  const fixedContract = {
    uuid: c.contract,
    exclusive_tiers: true,
    tiers: [{ minimum_quantity: 5, maximum_quantity: null, discount: '10.00', discount_type: 'percentage' }],
  };
  const active = (base: string, next: string) => ({
    status: 'active',
    start_date: base,
    base_renewal_date: base,
    charged_through: base,
    last_renewal_date: base,
    next_renewal_date: next,
  });
  const cases: Record<string, Record<string, unknown>> = {
    scheduled: { status: 'scheduled', start_date: NOW.toISOString(), quantity: 2 },
    'renewal-tier': {
      ...active('2026-03-15T09:00:00Z', NOW.toISOString()),
      quantity: 6,
      contract: JSON.stringify(fixedContract),
    },
    'cancel-at-renewal': {
      ...active('2026-03-15T09:00:00Z', NOW.toISOString()),
      status: 'not_renewing',
      cancellation_type: 'at_renewal',
      cancel_at: NOW.toISOString(),
      end_date: NOW.toISOString(),
    },
    backwards: {
      ...active('2026-03-15T09:00:00Z', NOW.toISOString()),
      plan_terms_id: c.backwards,
      charged_through: null,
      quantity: 3,
    },
    precharge: { ...active('2026-03-18T09:00:00Z', '2026-04-18T08:00:00Z'), pre_renewal_days_offset: 3 },
    'nothing-due': active('2026-03-20T09:00:00Z', '2026-04-20T08:00:00Z'),
    'scheduled-change': {
      ...active('2026-04-01T08:00:00Z', '2026-05-01T08:00:00Z'),
      scheduled_change: JSON.stringify({
        uuid: c.changeId,
        at: NOW.toISOString(),
        change_type: 'at_specified_time',
        terms_id: c.premium,
        quantity: 3,
        early_renewal: false,
      }),
    },
  };
  for (const [label, fields] of Object.entries(cases)) {
    const row = {
      id: randomUUID(),
      organization_id: organizationId,
      account_id: label === 'renewal-tier' ? ACCOUNT : OTHER_ACCOUNT,
      plan_terms_id: c.monthly,
      quantity: 1,
      status: 'active',
      time_zone: 'Europe/Copenhagen',
      on_test_clock: onTestClock,
      start_date: '2026-03-15T09:00:00Z',
      original_start_date: '2026-03-15T09:00:00Z',
      period_n: 0,
      pending_lines: '[]',
      due_at: NOW.toISOString(),
      collection_method: 'invoice',
      group_on_invoice: false,
      is_auto_renew_enabled: true,
      pre_renewal_days_offset: 0,
      pre_renewal_invoicing: false,
      po_number: label,
      reference_person: '',
      account_reference_person: '',
      case_number: '',
      custom_fields: '{"cost_center": "42"}',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      ...fields,
    };
    const columns = Object.keys(row);
    await db.execute(
      `insert into subscription (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      Object.values(row),
    );
  }
  return c;
}

/** Everything the organization's rows now say, ids of the organization's own objects replaced by names. */
async function outcome(orm: MikroORM, c: Catalog) {
  const db = orm.em.getConnection();
  const subscriptions = await db.execute<Record<string, unknown>[]>(
    `select * from subscription where organization_id = ? order by po_number`,
    [c.organizationId],
  );
  const labelOf = new Map(subscriptions.map((row) => [row.id as string, row.po_number as string]));
  const charges = await db.execute<Record<string, unknown>[]>(
    `select s.po_number, c.* from charge c join subscription s on s.id = c.subscription_id
     where c.organization_id = ? order by s.po_number, c.kind`,
    [c.organizationId],
  );
  const outbox = await db.execute<{ subject: string; payload: Buffer }[]>(
    `select subject, payload from outbox order by position`,
  );
  // By subscription (the scheduler's order is by due time and id), in publication order within one.
  const events = outbox
    .map((row) => ({ subject: row.subject, envelope: decodeEnvelope(row.payload) }))
    .filter(({ envelope }) => envelope.organization_id === c.organizationId)
    .map(({ subject, envelope }) => ({
      subject,
      label: labelOf.get(envelope.aggregate_id),
      envelope: { ...envelope, event_id: 'event', payload: undefined },
      payload:
        subject === 'subscriptions.charge.created'
          ? { ...subscriptionEventsV1.ChargeCreated.decode(envelope.payload).charge, uuid: 'charge' }
          : namedCharges(subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload)),
    }))
    .sort((a, b) => (a.label ?? '').localeCompare(b.label ?? ''));
  const text = JSON.stringify({
    subscriptions: subscriptions.map((row) => ({ ...row, id: row.po_number })),
    charges: charges.map((row) => ({ ...row, id: 'charge', subscription_id: row.po_number })),
    events,
  });
  const named = [...Object.entries(c), ...[...labelOf].map(([id, label]) => [`subscription ${label}`, id] as const)];
  return JSON.parse(named.reduce((out, [name, id]) => out.replaceAll(id, `<${name}>`), text));
}

/** An expiring change names the subscription's charges: their uuids differ from run to run, their number not. */
function namedCharges(changed: subscriptionEventsV1.SubscriptionChanged) {
  return { ...changed, charges: changed.charges.map(() => 'charge') };
}

describe('scheduler batch writes', () => {
  let database: EngineDatabase;
  let orm: MikroORM;
  beforeAll(async () => {
    database = await engineDatabase();
    orm = await database.open();
  });
  afterAll(async () => {
    await database.close();
  });

  it('write exactly the rows and events the unit of work writes for the same subscriptions', async () => {
    // Two organizations with the same catalog and subscriptions: one renewed by the scheduler's
    // batch (test clock rows, one batch), the other row by row through runEngine and the unit of work.
    const batched = await seedCases(orm, randomUUID(), true);
    const oneByOne = await seedCases(orm, randomUUID(), false);

    const processed = await processAllDue(orm, {
      now: NOW,
      testClockOrganization: batched.organizationId,
      batchSize: 50,
      context: CONTEXT,
    });
    expect(processed).toBe(7);
    const ids = await orm.em
      .getConnection()
      .execute<{ id: string }[]>('select id from subscription where organization_id = ? order by po_number', [
        oneByOne.organizationId,
      ]);
    for (const { id } of ids) {
      await inTransaction(orm, async (em) => {
        const row = await em.findOneOrFail(SubscriptionEntity, id, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
        await runEngine(changeScope(em, 'subscriptions', row.organization_id, CONTEXT, NOW), row, () => undefined);
      });
    }

    const viaBatch = await outcome(orm, batched);
    const viaUnitOfWork = await outcome(orm, oneByOne);
    // Not vacuous: every kind of work happened.
    expect(viaBatch.charges.map((row: Record<string, unknown>) => [row.po_number, row.kind, row.amount])).toEqual([
      ['backwards', 'renewal', '90.000000'],
      ['precharge', 'renewal', '100.000000'],
      ['renewal-tier', 'renewal', '540.000000'],
      ['scheduled', 'renewal', '200.000000'],
      ['scheduled-change', 'change', '346.670000'], // -16/30 × 100 + 16/30 × 250 × 3,
    ]);
    expect(viaBatch.events.map((event: { label: string; subject: string }) => [event.label, event.subject])).toEqual([
      ['backwards', 'subscriptions.charge.created'],
      ['backwards', 'subscriptions.subscription.changed'],
      ['cancel-at-renewal', 'subscriptions.subscription.changed'],
      ['precharge', 'subscriptions.charge.created'],
      ['renewal-tier', 'subscriptions.charge.created'],
      ['renewal-tier', 'subscriptions.subscription.changed'],
      ['scheduled', 'subscriptions.charge.created'],
      ['scheduled', 'subscriptions.subscription.changed'],
      ['scheduled-change', 'subscriptions.charge.created'],
      ['scheduled-change', 'subscriptions.subscription.changed'],
    ]);
    const due = (rows: Record<string, unknown>[]) => rows.map((row) => [row.po_number, row.due_at]);
    expect(due(viaBatch.subscriptions)).toEqual([
      ['backwards', '2026-05-15 08:00:00+00'],
      ['cancel-at-renewal', null],
      ['nothing-due', '2026-04-20 08:00:00+00'],
      ['precharge', '2026-04-18 08:00:00+00'],
      ['renewal-tier', '2026-05-15 08:00:00+00'],
      ['scheduled', '2026-05-15 08:00:00+00'],
      ['scheduled-change', '2026-05-01 08:00:00+00'],
    ]);
    // The same rows, columns, amounts, lines and event payloads either way (ids aside).
    expect(viaBatch.subscriptions).toEqual(
      viaUnitOfWork.subscriptions.map((row: Record<string, unknown>) => ({ ...row, on_test_clock: true })),
    );
    // A test-clock organization's charges await their invoices (docs/api.md "Test clocks"); the others' never do.
    expect(viaUnitOfWork.charges.map((row: Record<string, unknown>) => row.awaiting_invoice)).toEqual(
      Array(5).fill(false),
    );
    expect(viaBatch.charges).toEqual(
      viaUnitOfWork.charges.map((row: Record<string, unknown>) => ({ ...row, awaiting_invoice: true })),
    );
    expect(viaBatch.events).toEqual(viaUnitOfWork.events);
  }, 60_000);
});

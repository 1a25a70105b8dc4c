import { randomUUID } from 'node:crypto';
import { migrate, openOrm } from '@billing/db';
import { createTestSchema, type TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { subscriptionsEntities } from '../../src/db/entities/index.js';
import { migrations } from '../../src/db/migrations/index.js';

export interface EngineDatabase {
  schema: TestSchema;
  /** A new ORM (own connection pool) on the schema: one per simulated replica. */
  open(): Promise<MikroORM>;
  close(): Promise<void>;
}

/** A migrated throwaway subscriptions schema; `open` gives each replica its own pool. */
export async function engineDatabase(): Promise<EngineDatabase> {
  const schema = await createTestSchema('subs_engine');
  const orms: MikroORM[] = [];
  const open = async () => {
    const orm = await openOrm({
      clientUrl: schema.databaseUrl,
      schema: schema.schema,
      entities: subscriptionsEntities,
      migrations,
    });
    orms.push(orm);
    return orm;
  };
  await migrate(await open());
  return {
    schema,
    open,
    close: async () => {
      for (const orm of orms) await orm.close(true);
      await schema.drop();
    },
  };
}

/** A plan with active monthly forward terms at `price` (DKK) of one organization; returns the terms' id. */
export async function seedMonthlyTerms(
  orm: MikroORM,
  options: { organizationId: string; price: string; at: Date },
): Promise<string> {
  const planId = randomUUID();
  const termsId = randomUUID();
  const connection = orm.em.getConnection();
  const now = options.at.toISOString();
  await connection.execute(
    `insert into plan (id, organization_id, name, code, description, collect_vat, vat_type, created_at, updated_at)
     values (?, ?, 'Plan', ?, '', true, 'services', ?, ?)`,
    [planId, options.organizationId, `plan-${planId}`, now, now],
  );
  await connection.execute(
    `insert into plan_terms (id, organization_id, plan_id, code, interval_type, interval_count, price, currency, backwards_charging, active, created_at, updated_at)
     values (?, ?, ?, 'monthly', 'month', 1, ?, 'DKK', false, true, ?, ?)`,
    [termsId, options.organizationId, planId, options.price, now, now],
  );
  return termsId;
}

/**
 * `count` subscriptions of one organization on monthly forward terms at `price`, all starting at
 * `start` (scheduled and due then), inserted in one statement.
 */
export async function seedDueSubscriptions(
  orm: MikroORM,
  options: { organizationId: string; count: number; start: Date; price: string; timeZone: string },
): Promise<{ termsId: string }> {
  const termsId = await seedMonthlyTerms(orm, { ...options, at: options.start });
  const now = options.start.toISOString();
  await orm.em.getConnection().execute(
    `insert into subscription (id, organization_id, account_id, plan_terms_id, quantity, status, time_zone, on_test_clock,
       start_date, original_start_date, period_n, pending_lines, due_at, collection_method, group_on_invoice,
       is_auto_renew_enabled, pre_renewal_days_offset, pre_renewal_invoicing, po_number, reference_person,
       account_reference_person, case_number, custom_fields, created_at, updated_at)
     select gen_random_uuid(), ?, gen_random_uuid(), ?, 1, 'scheduled', ?, false, ?, ?, 0, '[]', ?, 'invoice', false,
       true, 0, false, '', '', '', '', '{}', ?, ?
     from generate_series(1, ?)`,
    [options.organizationId, termsId, options.timeZone, now, now, now, now, now, options.count],
  );
  return { termsId };
}

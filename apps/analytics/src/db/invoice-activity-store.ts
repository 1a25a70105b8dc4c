import { randomUUID } from 'node:crypto';
import { pgArray, selectBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActivityRecord } from '../domain/activity-ledger.js';
import {
  type InvoiceActivityType,
  invoiceKey,
  type PaymentSubscriptionBackfill,
} from '../domain/invoice-activities.js';
import { keysTable, type SqlStatement } from './sql-rows.js';

/** The row of an invoice activity (no MRR; `date` and the recording moment are the event's). */
export function invoiceActivityRow(
  organizationId: string,
  type: InvoiceActivityType,
  invoice: { uuid: string; account: string },
  subscriptionId: string | null,
  dropped: boolean,
  at: Date,
): ActivityRecord {
  return {
    id: randomUUID(),
    organization_id: organizationId,
    account_id: invoice.account,
    subscription_id: subscriptionId,
    invoice_id: invoice.uuid,
    type,
    date: at,
    created_date: at,
    updated_date: at,
    is_manual: false,
    is_churn: false,
    deleted: false,
    dropped,
    planned: false,
    plan_key: null,
    old_currency: null,
    new_currency: null,
    old_mrr_in_subscription_currency: null,
    new_mrr_in_subscription_currency: null,
    old_mrr: null,
    new_mrr: null,
    mrr_change: null,
    old_quantity: null,
    new_quantity: null,
    old_terms: null,
    new_terms: null,
    old_plan: null,
    new_plan: null,
    churn_reason: null,
    custom_churn_reason: null,
  };
}

/**
 * The subscription of each invoice's first invoice activity (invoice_sent / invoice_paid, by
 * recording order), by invoiceKey, for the invoices that have one: one statement for all. Each
 * invoice's rows are found by a lookup of its own (a lateral subquery, which `limit` keeps the
 * planner from flattening) in the (invoice_id, organization_id) index, the organization and the
 * type tested on the rows found, as in rowsPerKey: as a join of the keys with the table, 200 keys
 * without statistics hashed a scan of every activity.
 */
export async function firstInvoiceSubscriptions(
  em: EntityManager,
  invoices: ReadonlyArray<{ organizationId: string; invoiceId: string }>,
): Promise<Map<string, string | null>> {
  if (invoices.length === 0) return new Map();
  const keys = keysTable(
    'k',
    [
      ['organization_id', 'uuid'],
      ['invoice_id', 'uuid'],
    ],
    invoices.map(({ organizationId, invoiceId }) => [organizationId, invoiceId]),
  );
  const rows = await selectBound<{ organization_id: string; invoice_id: string; subscription_id: string | null }>(
    em,
    `select k.organization_id, k.invoice_id, f.subscription_id
       from ${keys.sql}
      cross join lateral (
        select a.subscription_id from activity a
         where a.invoice_id = k.invoice_id and (a.organization_id = k.organization_id) is true
           and (a.type in ('invoice_sent', 'invoice_paid')) is true
         order by a.seq limit 1
      ) as f`,
    keys.params,
  );
  return new Map(rows.map((row) => [invoiceKey(row.organization_id, row.invoice_id), row.subscription_id]));
}

/** Those of the subscriptions cancelled with cancel_invalid: one statement for all. */
export async function invalidSubscriptions(
  em: EntityManager,
  subscriptionIds: readonly string[],
): Promise<Set<string>> {
  if (subscriptionIds.length === 0) return new Set();
  const rows = await selectBound<{ id: string }>(
    em,
    'select id from subscription_mrr where invalid and id = any(?::uuid[])',
    [pgArray(subscriptionIds)],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * The statement that names the subscription on the invoices' payment_made activities that have none
 * yet, one for all; null for no backfills. It changes only stored rows: run with the insert of the
 * batch's activities (runWrites) it sees the table as it was before, as if run first.
 */
export function paymentSubscriptionsBackfill(backfills: readonly PaymentSubscriptionBackfill[]): SqlStatement | null {
  if (backfills.length === 0) return null;
  const keys = keysTable(
    'b',
    [
      ['organization_id', 'uuid'],
      ['invoice_id', 'uuid'],
      ['subscription_id', 'uuid'],
      ['dropped', 'boolean'],
    ],
    backfills.map((b) => [b.organizationId, b.invoiceId, b.subscriptionId, b.dropped]),
  );
  // Each invoice's payments are found by a lookup per key that the planner cannot flatten (a
  // lateral subquery with `offset 0`) in the (invoice_id, organization_id) index, the only one
  // leading with the key (the organization is a filter, as in rowsPerKey), whatever the planner
  // believes. As a join of the keys with the table (`from keys where a.organization_id =
  // b.organization_id and …`), for a batch of 500 keys without statistics it scanned the table for
  // the payments with no subscription and compared each with every key: 2.8 s for 500 keys at
  // 100,000 activities, under the organization's lock (analytics fell 65,000 activities behind
  // in a 100,000 run). The rows found are then updated by their ids (`id = any(…)`, the primary
  // key). The type and the missing subscription are filters on the rows found, `(…) is true`: as
  // index conditions the planner took the unique (subscription_id, plan_key) index for
  // `subscription_id is null` and read every entry with no subscription it ever held, the dead
  // ones too (nothing vacuums them here).
  return {
    sql: `with found as materialized (
       select p.id, b.subscription_id, b.dropped
         from ${keys.sql}
        cross join lateral (
          select a.id from activity a
           where a.invoice_id = b.invoice_id and (a.organization_id = b.organization_id) is true
             and (a.type = 'payment_made') is true and (a.subscription_id is null) is true
          offset 0
        ) as p
     )
     update activity a set subscription_id = f.subscription_id, dropped = f.dropped
       from found f
      where a.id = any(array(select id from found)) and a.id = f.id`,
    params: keys.params,
  };
}

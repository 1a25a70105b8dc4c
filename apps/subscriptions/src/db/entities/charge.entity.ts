import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { ChargeLineRecord } from '../../domain/lifecycle/index.js';

/**
 * A billing document made by the engine, handed to invoicing through the outbox (charge.created)
 * in the same transaction. The unique key makes a second document for the same period (renewal,
 * change_key '') or the same change impossible, even when two schedulers run the same work.
 * `awaiting_invoice`: a test-clock organization's charge that no test clock advance has yet seen
 * invoiced (ProcessDue lists them for the advance to wait for; ConfirmChargesInvoiced clears them).
 */
export const ChargeEntity = defineEntity({
  name: 'Charge',
  tableName: 'charge',
  uniques: [{ name: 'charge_once_idx', properties: ['subscription_id', 'kind', 'period_start', 'change_key'] }],
  indexes: [
    { name: 'charge_organization_subscription_idx', properties: ['organization_id', 'subscription_id'] },
    // Only test-clock charges not yet seen invoiced: small, and untouched by real-clock charges.
    {
      name: 'charge_awaiting_invoice_idx',
      expression: 'create index "charge_awaiting_invoice_idx" on "charge" ("organization_id") where "awaiting_invoice"',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    subscription_id: p.uuid(),
    account_id: p.uuid(),
    kind: p.string().length(32),
    period_start: p.datetime(),
    change_key: p.string().length(64),
    due_at: p.datetime(),
    currency: p.string().length(3),
    amount: p.decimal('string').precision(20).scale(6),
    lines: p.json<ChargeLineRecord[]>(),
    credit_all_invoices: p.boolean(),
    awaiting_invoice: p.boolean().default(false),
    created_at: p.datetime(),
  },
});

export type ChargeRow = InferEntity<typeof ChargeEntity>;

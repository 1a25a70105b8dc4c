import { randomUUID } from 'node:crypto';
import { applyWrite, type Write } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { LockMode } from '@mikro-orm/core';
import { findPlanTerms } from '../../db/catalog-store.js';
import { SubscriptionEntity, type SubscriptionRow } from '../../db/entities/subscription.entity.js';
import { lockAccountSubscriptions } from '../../db/subscription-store.js';
import { firstVersion } from '../../db/subscription-version.js';
import {
  SUBSCRIPTION_SHAPE,
  type SubscriptionFields,
  startDateViolations,
  subscriptionViolations,
  termsInterval,
} from '../../domain/subscription-fields.js';
import type { SubscriptionView } from '../../domain/subscription-view.js';
import { type ChangeScope, runChange } from '../change-transaction.js';
import { requireAccountId } from '../contracts.js';
import type { SubscriptionsDeps } from '../deps.js';
import { afterLastChange } from './after-last-change.js';
import { runEngine } from './persist-outcome.js';
import { organizationTimeZone, subscriptionResponse } from './subscription-response.js';

/** Terms a new subscription (or a change) may use: the organization's, and active. */
export async function requireActiveTerms(scope: ChangeScope, uuid: string, field = 'terms') {
  const terms = await findPlanTerms(scope.em, scope.organizationId, uuid);
  if (!terms) throw AppError.invalidField(field, `Invalid pk "${uuid}" - object does not exist.`);
  if (!terms.active)
    throw AppError.invalidField(field, 'These plan terms are inactive; no new subscriptions can be started with them.');
  return terms;
}

async function insertSubscription(
  scope: ChangeScope,
  context: RequestContext,
  accountId: string,
  fields: SubscriptionFields,
): Promise<SubscriptionRow> {
  const terms = await requireActiveTerms(scope, fields.terms);
  const violations = [
    ...subscriptionViolations(fields, terms.backwards_charging),
    ...startDateViolations(fields.start_date, scope.now, termsInterval(terms), organizationTimeZone(context)),
  ];
  if (violations.length > 0) throw AppError.invalid(violations);
  const start = fields.start_date ?? scope.now;
  const row = scope.em.create(SubscriptionEntity, {
    id: randomUUID(),
    organization_id: scope.organizationId,
    account_id: accountId,
    plan_terms_id: terms.id,
    quantity: fields.quantity,
    override_price: fields.override_price,
    status: 'scheduled',
    time_zone: organizationTimeZone(context),
    on_test_clock: Boolean(context.organizationTime),
    start_date: start,
    original_start_date: start,
    base_renewal_date: null,
    period_n: 0,
    charged_through: null,
    last_renewal_date: null,
    next_renewal_date: null,
    end_date: null,
    cancellation_type: null,
    cancel_at: null,
    scheduled_change: null,
    since: null,
    pending_lines: [],
    contract: null,
    due_at: start,
    collection_method: fields.collection_method,
    group_on_invoice: fields.group_on_invoice,
    is_auto_renew_enabled: fields.is_auto_renew_enabled,
    payment_terms: fields.payment_terms,
    pre_renewal_days_offset: fields.pre_renewal_days_offset,
    pre_renewal_invoicing: fields.pre_renewal_invoicing,
    po_number: fields.po_number,
    invoice_supplement: fields.invoice_supplement,
    reference_person: fields.reference_person,
    account_reference_person: fields.account_reference_person,
    case_number: fields.case_number,
    churn_reason_id: fields.churn_reason,
    custom_churn_reason: fields.custom_churn_reason,
    custom_fields: fields.custom_fields,
    created_at: scope.now,
    updated_at: scope.now,
  });
  firstVersion(row);
  await runEngine(scope, row, (engine) => engine.created(scope.now), { catchUpFirst: false });
  scope.audit('subscription.create', 'subscription', row.id, { account: accountId, terms: terms.id });
  return row;
}

/** POST /subscriptions/: one new subscription; the account's others are not touched. */
export async function createSubscription(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  write: Write<SubscriptionFields>,
): Promise<SubscriptionView> {
  return runChange(deps, context, async (scope) => {
    const accountId = requireAccountId(account);
    const applied = applyWrite(SUBSCRIPTION_SHAPE, null, write, 'create');
    if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
    const row = await insertSubscription(scope, context, accountId, applied.fields as SubscriptionFields);
    return subscriptionResponse(scope, row);
  });
}

/** What POST /accounts/{code}/subscribe/ sends (the account as the uuid the gateway resolved). */
export interface SubscribeInput {
  account: string;
  terms: string;
  quantity: number;
  collection_method: string;
  group_on_invoice: boolean;
}

/**
 * POST /accounts/{code}/subscribe/ (gaps §6): every other non-expired subscription of the account
 * ends now with its unused remainder credited, and the new one starts now, in one transaction.
 * Simultaneous subscribes on one account take turns (the account lock): each sees, and replaces,
 * the subscription the one before it made.
 */
export async function subscribe(
  deps: SubscriptionsDeps,
  context: RequestContext,
  request: SubscribeInput,
): Promise<SubscriptionView> {
  return runChange(deps, context, async (requested) => {
    const accountId = requireAccountId(request.account);
    await lockAccountSubscriptions(requested.em, accountId);
    if (!Number.isInteger(request.quantity) || request.quantity < 1) {
      throw AppError.invalidField('quantity', 'Ensure this value is greater than or equal to 1.');
    }
    const fields: SubscriptionFields = {
      ...(SUBSCRIPTION_SHAPE.defaults as SubscriptionFields),
      terms: request.terms,
      quantity: request.quantity,
      collection_method: request.collection_method,
      group_on_invoice: request.group_on_invoice,
    };
    await requireActiveTerms(requested, fields.terms);
    const others = await requested.em.find(
      SubscriptionEntity,
      { organization_id: requested.organizationId, account_id: accountId, status: { $ne: 'expired' } },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
    );
    // The others end, and the new one starts, at one moment: not before any of their last changes.
    const scope = afterLastChange(requested, others);
    for (const other of others) {
      await runEngine(scope, other, (engine) => engine.endForReplacement(scope.now));
      scope.audit('subscription.replace', 'subscription', other.id, { account: accountId });
    }
    const row = await insertSubscription(scope, context, accountId, fields);
    return subscriptionResponse(scope, row);
  });
}

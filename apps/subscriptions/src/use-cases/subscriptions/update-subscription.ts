import { applyWrite, type Write } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { findPlanTerms } from '../../db/catalog-store.js';
import { subscriptionFieldsOf } from '../../db/subscription-fields.js';
import { requireSubscription } from '../../db/subscription-store.js';
import { type ChangeOptions, type ChangeRequest, changeRequest } from '../../domain/change-request.js';
import {
  SUBSCRIPTION_SHAPE,
  type SubscriptionFields,
  startDateViolations,
  subscriptionViolations,
  termsInterval,
} from '../../domain/subscription-fields.js';
import type { SubscriptionView } from '../../domain/subscription-view.js';
import { runChange } from '../change-transaction.js';
import type { SubscriptionsDeps } from '../deps.js';
import { afterLastChange } from './after-last-change.js';
import { requireActiveTerms } from './create-subscription.js';
import { runEngine } from './persist-outcome.js';
import { subscriptionResponse } from './subscription-response.js';

/**
 * PUT and PATCH (both partial). Plain fields change now; a new `terms` or `quantity` is a change
 * the engine applies as `changeOptions` say (gaps §6); refused while pre_renewal_invoicing is set.
 */
export async function updateSubscription(
  deps: SubscriptionsDeps,
  context: RequestContext,
  uuid: string,
  write: Write<SubscriptionFields>,
  changeOptions?: ChangeOptions,
): Promise<SubscriptionView> {
  return runChange(deps, context, async (requested) => {
    const row = await requireSubscription(requested.em, requested.organizationId, uuid, true);
    const scope = afterLastChange(requested, [row]);
    if (row.pre_renewal_invoicing) {
      throw AppError.refused(
        'PRE_RENEWAL_INVOICING',
        'A subscription with pre_renewal_invoicing cannot be updated; use pre_renewal_days_offset instead.',
      );
    }
    // pre_renewal_invoicing is writable on create only: an update ignores it, as DRF ignores read-only fields.
    const present = new Set([...write.present].filter((field) => field !== 'pre_renewal_invoicing'));
    const applied = applyWrite(
      SUBSCRIPTION_SHAPE,
      subscriptionFieldsOf(row),
      { values: write.values, present },
      'patch',
    );
    if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
    const fields = applied.fields as SubscriptionFields;
    const change: ChangeRequest = changeRequest(changeOptions);
    const pricingChanged = fields.terms !== row.plan_terms_id || fields.quantity !== row.quantity;
    const terms = fields.terms !== row.plan_terms_id ? await requireActiveTerms(scope, fields.terms) : null;
    const effectiveTerms = terms ?? (await findPlanTerms(scope.em, scope.organizationId, row.plan_terms_id));
    const violations = subscriptionViolations(fields, effectiveTerms?.backwards_charging ?? false);
    if (violations.length > 0) throw AppError.invalid(violations);
    const startMoved = fields.start_date !== null && fields.start_date.getTime() !== row.start_date.getTime();
    if (startMoved && row.status !== 'scheduled') {
      throw AppError.invalidField('start_date', 'The start date cannot be changed after the subscription has started.');
    }
    if (startMoved && effectiveTerms) {
      const backdated = startDateViolations(fields.start_date, scope.now, termsInterval(effectiveTerms), row.time_zone);
      if (backdated.length > 0) throw AppError.invalid(backdated);
    }
    if (change.violations.length > 0) throw AppError.invalid(change.violations);

    scope.em.assign(row, {
      collection_method: fields.collection_method,
      group_on_invoice: fields.group_on_invoice,
      is_auto_renew_enabled: fields.is_auto_renew_enabled,
      payment_terms: fields.payment_terms,
      pre_renewal_days_offset: fields.pre_renewal_days_offset,
      po_number: fields.po_number,
      invoice_supplement: fields.invoice_supplement,
      override_price: fields.override_price,
      reference_person: fields.reference_person,
      account_reference_person: fields.account_reference_person,
      case_number: fields.case_number,
      churn_reason_id: fields.churn_reason,
      custom_churn_reason: fields.custom_churn_reason,
      custom_fields: fields.custom_fields,
      updated_at: scope.now,
      ...(startMoved
        ? { start_date: fields.start_date!, original_start_date: fields.start_date!, due_at: fields.start_date! }
        : {}),
    });

    await runEngine(
      scope,
      row,
      (engine, world) => {
        const newTerms = world.terms(fields.terms);
        if (pricingChanged || change.earlyRenewal) {
          if (change.type === 'immediate') {
            engine.changeNow(scope.now, newTerms, fields.quantity, {
              earlyRenewal: change.earlyRenewal,
              prorate: change.prorate,
            });
          } else if (change.type === 'at_specified_time') {
            engine.scheduleChange(scope.now, newTerms, fields.quantity, 'at_specified_time', {
              at: change.prorateDate!,
              earlyRenewal: change.earlyRenewal,
            });
          } else {
            engine.scheduleChange(scope.now, newTerms, fields.quantity, 'at_renewal', { renewals: change.renewals });
          }
        }
        engine.updated(scope.now);
      },
      { extraTerms: [fields.terms] },
    );
    scope.audit('subscription.update', 'subscription', row.id, {
      fields: [...present],
      change_type: pricingChanged ? change.type : null,
    });
    return subscriptionResponse(scope, row);
  });
}

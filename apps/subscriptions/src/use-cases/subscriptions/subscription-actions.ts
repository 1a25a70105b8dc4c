import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { chargedLines, requireSubscription } from '../../db/subscription-store.js';
import {
  CANCELLATION_TYPES,
  type CancellationType,
  chargedForPeriod,
  type SubscriptionEngine,
} from '../../domain/lifecycle/index.js';
import type { SubscriptionView } from '../../domain/subscription-view.js';
import { runChange } from '../change-transaction.js';
import type { SubscriptionsDeps } from '../deps.js';
import { afterLastChange } from './after-last-change.js';
import { runEngine } from './persist-outcome.js';
import { subscriptionResponse } from './subscription-response.js';

function cancellationType(raw: string | undefined): CancellationType {
  if (raw === undefined) throw AppError.invalidField('cancellation_type', 'This field is required.');
  if (!(CANCELLATION_TYPES as readonly string[]).includes(raw)) {
    throw AppError.invalidField('cancellation_type', `"${raw}" is not a valid choice.`);
  }
  return raw as CancellationType;
}

/** The fields of POST /subscriptions/{uuid}/cancel/, as sent. */
export interface CancelOptions {
  cancellation_type?: string | undefined;
  /** With at_renewal: how many renewals from now (0: the next). */
  cancel_renewal?: number | undefined;
  /** With at_specified_time: when. */
  cancel_date?: Date | undefined;
}

/** POST /subscriptions/{uuid}/cancel/ (gaps §6). */
export async function cancelSubscription(
  deps: SubscriptionsDeps,
  context: RequestContext,
  uuid: string,
  request: CancelOptions,
): Promise<SubscriptionView> {
  return runChange(deps, context, async (requested) => {
    const row = await requireSubscription(requested.em, requested.organizationId, uuid, true);
    const scope = afterLastChange(requested, [row]);
    const type = cancellationType(request.cancellation_type);
    if (request.cancel_renewal !== undefined) {
      if (type !== 'at_renewal')
        throw AppError.invalidField('cancel_renewal', 'Only allowed with cancellation_type at_renewal.');
      if (!Number.isInteger(request.cancel_renewal) || request.cancel_renewal < 0 || request.cancel_renewal > 11) {
        throw AppError.invalidField('cancel_renewal', 'Ensure this value is between 0 and 11.');
      }
    }
    if (type === 'at_specified_time' && !request.cancel_date) {
      throw AppError.invalidField('cancel_date', 'This field is required with cancellation_type at_specified_time.');
    }
    if (request.cancel_date && type !== 'at_specified_time') {
      throw AppError.invalidField('cancel_date', 'Only allowed with cancellation_type at_specified_time.');
    }
    const needsLines = type === 'full_refund' || type === 'cancel_invalid';
    const lines = needsLines ? await chargedLines(scope.em, scope.organizationId, row.id) : [];
    await runEngine(scope, row, (engine) => {
      const periodFrom = engine.currentPeriodDateFrom();
      engine.cancel(scope.now, type, {
        renewals: request.cancel_renewal ?? 0,
        date: request.cancel_date,
        charged: type === 'full_refund' && periodFrom ? chargedForPeriod(lines, periodFrom) : null,
        allLines: lines,
      });
    });
    scope.audit('subscription.cancel', 'subscription', row.id, { cancellation_type: type });
    return subscriptionResponse(scope, row);
  });
}

/** An action on one subscription: locked, run through the engine (not before its last change), audited, returned. */
function engineAction(
  deps: SubscriptionsDeps,
  context: RequestContext,
  uuid: string,
  auditAction: string,
  act: (engine: SubscriptionEngine, now: Date) => void,
): Promise<SubscriptionView> {
  return runChange(deps, context, async (requested) => {
    const row = await requireSubscription(requested.em, requested.organizationId, uuid, true);
    const scope = afterLastChange(requested, [row]);
    await runEngine(scope, row, (engine) => act(engine, scope.now));
    scope.audit(auditAction, 'subscription', row.id);
    return subscriptionResponse(scope, row);
  });
}

/** POST /subscriptions/{uuid}/reactivate/ (gaps §6). */
export function reactivateSubscription(deps: SubscriptionsDeps, context: RequestContext, uuid: string) {
  return engineAction(deps, context, uuid, 'subscription.reactivate', (engine, now) => engine.reactivate(now));
}

/** POST /subscriptions/{uuid}/renew-now/ (gaps §6). */
export function renewSubscriptionNow(deps: SubscriptionsDeps, context: RequestContext, uuid: string) {
  return engineAction(deps, context, uuid, 'subscription.renew_now', (engine, now) => engine.renewNow(now));
}

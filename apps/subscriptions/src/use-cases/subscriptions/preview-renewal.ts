import type { RequestContext } from '@billing/observability';
import { orgNow, requireOrganization } from '@billing/runtime';
import { chargeView } from '../../db/charge-view.js';
import { contractResolversOf, termsIdsOf } from '../../db/subscription-catalog.js';
import { stateOf } from '../../db/subscription-state.js';
import { autoRenewingSubscriptions } from '../../db/subscription-store.js';
import type { ChargeView } from '../../domain/charge-view.js';
import { linesTotal, SubscriptionEngine } from '../../domain/lifecycle/index.js';
import { requireAccountId } from '../contracts.js';
import type { SubscriptionsDeps } from '../deps.js';
import { loadWorld } from './persist-outcome.js';

/**
 * The renewal charges of the account's next renewal, computed by running the engine on copies of
 * the subscriptions up to that moment; nothing is stored. The next renewal is the earliest
 * next_renewal_date of the account's active, auto-renewing subscriptions; every such subscription
 * renewing then contributes its renewal charge.
 */
export async function previewRenewal(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
): Promise<ChargeView[]> {
  const organizationId = requireOrganization(context);
  const accountId = requireAccountId(account);
  const em = deps.orm.em.fork();
  const rows = await autoRenewingSubscriptions(em, organizationId, accountId);
  const renewal = rows[0]?.next_renewal_date;
  if (!renewal) return [];
  const renewing = rows.filter((row) => row.next_renewal_date?.getTime() === renewal.getTime());
  const world = await loadWorld(em, organizationId, renewing.flatMap(termsIdsOf));
  // Each subscription's contract is picked on its own zone's local day, as the renewal will.
  const contractsOf = await contractResolversOf(em, renewing);
  const now = orgNow(deps.clock, context);
  const charges: ChargeView[] = [];
  for (const row of renewing) {
    const engine = new SubscriptionEngine(stateOf(row, world.terms), {
      ...contractsOf(row),
      newId: () => '',
    });
    engine.advance(now);
    const before = engine.charges.length;
    engine.advance(renewal);
    for (const draft of engine.charges.slice(before)) {
      if (draft.kind !== 'renewal') continue;
      charges.push(
        chargeView(
          {
            id: '',
            subscription_id: row.id,
            account_id: row.account_id,
            kind: draft.kind,
            currency: draft.currency,
            amount: linesTotal(draft.lines, draft.currency),
            due_at: draft.due_at,
            period_start: draft.period_start,
            lines: draft.lines,
            credit_all_invoices: false,
          },
          row,
          world.entry,
        ),
      );
    }
  }
  return charges;
}

import { type RequestContext, webhookDeliveriesTotal } from '@billing/observability';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  type FinishedAttempt,
  hasDueDeliveries,
  recordAttempts,
  releaseLeases,
} from '../../db/webhook-delivery-store.js';
import { requireOrganization } from '../change-transaction.js';
import { attemptDelivery } from './attempt-delivery.js';
import { recordDueRenewalNotices } from './renewal-notices.js';
import type { WebhooksDeps } from './webhooks-deps.js';

/**
 * Deliveries of one webhook claimed at once: attempted `endpointConcurrency` at a time, their
 * attempts recorded together (one statement per claim, not one per delivery).
 */
export const CLAIM_PER_WEBHOOK = 50;

/** How long a claim holds its deliveries: every attempt of a claim timing out, and a margin. */
export const leaseMs = (deps: WebhooksDeps): number =>
  Math.ceil(CLAIM_PER_WEBHOOK / deps.webhooks.endpointConcurrency) * (deps.webhooks.attemptTimeoutMs + 1_000) + 60_000;

/** Claimed deliveries by webhook, each webhook's in due order. */
export function byWebhook(claimed: readonly ClaimedDelivery[]): ClaimedDelivery[][] {
  const groups = new Map<string, ClaimedDelivery[]>();
  for (const delivery of claimed) groups.set(delivery.webhookId, [...(groups.get(delivery.webhookId) ?? []), delivery]);
  return [...groups.values()];
}

/**
 * Claims due deliveries: of every webhook but the `busy` ones, at most `webhooks` webhooks (the
 * claims of others are released at once), of one organization or of all.
 */
export async function claimDue(
  deps: WebhooksDeps,
  options: { busy: readonly string[]; webhooks: number; organizationId: string | null },
): Promise<ClaimedDelivery[][]> {
  const now = deps.clock.now();
  const claimed = await claimDueDeliveries(deps.pool, {
    now,
    leaseUntil: new Date(now.getTime() + leaseMs(deps)),
    limit: options.webhooks * CLAIM_PER_WEBHOOK,
    perWebhook: CLAIM_PER_WEBHOOK,
    busy: options.busy,
    organizationId: options.organizationId,
  });
  const groups = byWebhook(claimed);
  const extra = groups.slice(options.webhooks).flat();
  if (extra.length > 0)
    await releaseLeases(
      deps.pool,
      extra.map((delivery) => delivery.id),
    );
  return groups.slice(0, options.webhooks);
}

/**
 * A webhook's claimed deliveries, at most `endpointConcurrency` in flight to its endpoint (taken
 * in due order; gaps.md §12 promises no order of arrival), then their attempts recorded in one
 * statement. A hanging endpoint holds only its own claim: each attempt ends within the timeout.
 */
export async function attemptClaim(deps: WebhooksDeps, deliveries: readonly ClaimedDelivery[]): Promise<void> {
  const finished: FinishedAttempt[] = [];
  let next = 0;
  const sender = async () => {
    while (next < deliveries.length) finished.push(await attemptDelivery(deps, deliveries[next++]!));
  };
  const senders = Math.min(deps.webhooks.endpointConcurrency, deliveries.length);
  await Promise.all(Array.from({ length: senders }, sender));
  await recordAttempts(deps.pool, finished, deps.clock.now());
  // One statement, committed when it returns: what it recorded counts now.
  for (const { outcome } of finished) webhookDeliveriesTotal.inc({ outcome: WEBHOOK_OUTCOME_LABELS[outcome.status] });
}

/** billing_webhook_deliveries_total's outcome label for what an attempt left the delivery in. */
const WEBHOOK_OUTCOME_LABELS = { succeeded: 'succeeded', pending: 'retrying', failed: 'failed' } as const;

/**
 * The test clock's advance: makes the renewal notices that fell due, then attempts every delivery of the calling organization due on its clock
 * and answers once none is left due; deliveries another dispatcher is attempting are waited for
 * (up to `timeoutMs`). Endpoints side by side, each with at most `endpointConcurrency` deliveries at once.
 */
export async function deliverDueWebhooks(
  deps: WebhooksDeps,
  context: RequestContext,
  timeoutMs: number,
): Promise<number> {
  const organizationId = requireOrganization(context);
  const deadline = Date.now() + timeoutMs;
  await recordDueRenewalNotices(deps, organizationId);
  let attempted = 0;
  for (;;) {
    const groups = await claimDue(deps, { busy: [], webhooks: deps.webhooks.maxConcurrency, organizationId });
    if (groups.length > 0) {
      await Promise.all(groups.map((group) => attemptClaim(deps, group)));
      attempted += groups.flat().length;
      continue;
    }
    const others = await hasDueDeliveries(deps.orm.em.fork(), organizationId, deps.clock.now());
    if (!others || Date.now() >= deadline) return attempted;
    // Another dispatcher holds some: their attempt ends within the timeout.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

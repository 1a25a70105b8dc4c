import { inTransaction } from '@billing/db';
import { claimDueRenewalNotices, markRenewalsNoticed } from '../../db/renewal-notice-store.js';
import { RENEWAL_NOTICE_MS, renewalNoticeId } from '../../domain/webhooks/renewal-notice.js';
import { recordEventsWebhookDeliveries } from './record-deliveries.js';
import type { WebhooksDeps } from './webhooks-deps.js';

/** Notices made per pass; the rest follow in the next passes. */
const NOTICES_PER_PASS = 200;

/**
 * renew_subscription_soon: for each renewing subscription (of one organization, or of all) whose
 * next renewal is at most 7 days ahead on its organization's clock, the deliveries of one notice
 * per renewal and its e-mail to the recipients of subscription notifications, from the accounts read model of subscriptions (no event announces it), in one
 * transaction with the mark that it was made. Returns how many deliveries were new.
 */
export async function recordDueRenewalNotices(deps: WebhooksDeps, organizationId: string | null): Promise<number> {
  return inTransaction(deps.orm, async (em) => {
    const due = await claimDueRenewalNotices(em, {
      now: deps.clock.now(),
      noticeMs: RENEWAL_NOTICE_MS,
      organizationId,
      limit: NOTICES_PER_PASS,
    });
    const noticed = due.map((notice) => ({
      notice,
      eventId: renewalNoticeId(notice.subscriptionId, notice.renewalAt),
    }));
    // The organizations' webhooks read once for the pass, each notice rendered only when one takes it.
    const created = await recordEventsWebhookDeliveries(
      em,
      deps.clock,
      noticed.map(({ notice, eventId }) => ({
        event: { organizationId: notice.organizationId, eventId, name: 'renew_subscription_soon' },
        renderData: () =>
          deps.renderSubscription({ requestId: eventId, organizationId: notice.organizationId }, notice.snapshot),
      })),
    );
    // The renewal's e-mail (renews_soon) goes with its deliveries: once per renewal.
    for (const { notice, eventId } of noticed) await deps.mailRenewalNotice(em, notice, eventId);
    await markRenewalsNoticed(em, due);
    return created;
  });
}

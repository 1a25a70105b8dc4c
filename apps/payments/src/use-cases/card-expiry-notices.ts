import { inTransaction } from '@billing/db';
import { changeScope } from '@billing/runtime';
import { LockMode } from '@mikro-orm/postgresql';
import { paymentCardView } from '../db/card-view.js';
import { PaymentCardEntity } from '../db/entities/payment-card.entity.js';
import { localDate } from '../domain/amounts.js';
import { expiryMonth, expiryNotice } from '../domain/payment-card.js';
import { publishPaymentCardEvent } from '../events/card-events.js';
import { systemContext } from './charging/run-attempt.js';
import type { PaymentsDeps } from './deps.js';
import { queuePaymentMail } from './mail/queue-payment-mail.js';

/** Wall clocks run at most 14 hours ahead of UTC (Pacific/Kiritimati). */
const MAX_ZONE_LEAD_MS = 14 * 60 * 60 * 1000;

/** Active cards of `where` not told of yet whose expiry month is not after (year, month). */
const expiringBy = (year: number, month: number) => ({
  active: true,
  expiry_notice_month: null,
  $or: [{ year: { $lt: year } }, { year, month: { $lte: month } }],
});

/**
 * card_expires_this_month for one organization at `now` (its clock): each active card whose
 * expiry month began by then is told of once, at the first instant of that month: the event
 * payments.payment_card.expires_this_month (webhook card_expires_this_month) and a mail to the
 * recipients with receive_payment_card_notifications, in one transaction that also records the
 * month on the card (expiry_notice_month), under the card's lock, so it goes once. A card
 * registered after its month began is only marked. Answers how many were told of.
 */
export async function sendExpiryNotices(
  deps: PaymentsDeps,
  organization: { id: string; timeZone: string },
  now: Date,
): Promise<number> {
  const [year, month] = localDate(now, organization.timeZone).split('-').map(Number) as [number, number];
  const cards = await deps.orm.em
    .fork()
    .find(
      PaymentCardEntity,
      { organization_id: organization.id, ...expiringBy(year, month) },
      { orderBy: [{ year: 'asc' }, { month: 'asc' }, { id: 'asc' }] },
    );
  let told = 0;
  for (const candidate of cards) {
    const notice = expiryNotice(candidate, organization.timeZone, now);
    if (notice.kind === 'not_yet') continue;
    const sent = await inTransaction(deps.orm, async (em) => {
      const card = await em.findOne(
        PaymentCardEntity,
        { id: candidate.id, active: true, expiry_notice_month: null },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!card) return false;
      card.expiry_notice_month = expiryMonth(card);
      if (notice.kind === 'passed') {
        await em.flush();
        return false;
      }
      const scope = changeScope(em, 'payments', organization.id, systemContext(organization.id), notice.at);
      await queuePaymentMail(em, {
        organizationId: organization.id,
        accountId: card.account_id,
        subjectId: card.id,
        facts: {
          kind: 'card_expires_this_month',
          brand: card.brand,
          last4: card.last4,
          month: card.month,
          year: card.year,
        },
        now: notice.at,
      });
      await em.flush();
      scope.audit('payment_card.expires_this_month', 'payment_card', card.id, { month: card.expiry_notice_month });
      publishPaymentCardEvent(scope, 'payment_card.expires_this_month', paymentCardView(card));
      return true;
    });
    if (sent) told += 1;
  }
  return told;
}

/**
 * The worker's pass: sendExpiryNotices for every organization on the real clock that has a card
 * whose expiry month may have begun somewhere on Earth by now. Test-clock organizations are told
 * by their clock's advance.
 */
export async function sendDueExpiryNotices(deps: PaymentsDeps): Promise<number> {
  const now = deps.clock.now();
  const ahead = new Date(now.getTime() + MAX_ZONE_LEAD_MS);
  const rows = await deps.orm.em
    .fork()
    .find(PaymentCardEntity, expiringBy(ahead.getUTCFullYear(), ahead.getUTCMonth() + 1), {
      fields: ['organization_id'],
    });
  let told = 0;
  for (const organizationId of new Set(rows.map((row) => row.organization_id))) {
    try {
      const organization = await deps.directory.organization(systemContext(organizationId));
      if (organization.testClockTime) continue;
      told += await sendExpiryNotices(deps, { id: organizationId, timeZone: organization.timeZone }, now);
    } catch (error) {
      deps.logger.warn({ err: error, organization_id: organizationId }, 'card expiry notices failed; retried later');
    }
  }
  return told;
}

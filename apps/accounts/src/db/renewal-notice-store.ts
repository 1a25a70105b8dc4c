import type { EntityManager } from '@mikro-orm/postgresql';
import { RENEWING_STATUS } from '../domain/webhooks/renewal-notice.js';

/** A renewal whose notice is due and not made yet. */
export interface DueRenewalNotice {
  subscriptionId: string;
  organizationId: string;
  renewalAt: Date;
  /** The encoded Subscription of the stored state. */
  snapshot: Uint8Array;
}

/**
 * Renewing subscriptions (of one organization or all) whose next renewal is within 7 days on
 * their organization's clock (and not past), not noticed for this renewal yet; locked so that
 * two replicas do not both render the same notice. The dispatchers' scan of all organizations
 * skips rows another holds; one organization's (the test clock's advance) waits for them, so that
 * a notice another replica is making is committed, and its deliveries due, before it goes on.
 */
export async function claimDueRenewalNotices(
  em: EntityManager,
  options: { now: Date; noticeMs: number; organizationId: string | null; limit: number },
): Promise<DueRenewalNotice[]> {
  const rows = await em.execute<
    Array<{ id: string; organization_id: string; next_renewal_at: Date | string; snapshot: Buffer }>
  >(
    `select s.id, s.organization_id, s.next_renewal_at, s.snapshot
       from account_subscription s join organization o on o.id = s.organization_id
      where s.status = ? and s.snapshot is not null and s.next_renewal_at is not null
        and s.next_renewal_at > coalesce(o.test_clock_time, ?::timestamptz)
        and s.next_renewal_at <= coalesce(o.test_clock_time, ?::timestamptz) + (? * interval '1 millisecond')
        -- The same window widened to every organization's clock: implied by the two lines above,
        -- but free of the join, so the (status, next_renewal_at) index reads only the window
        -- instead of every renewing subscription on each pass (least/greatest skip nulls).
        and s.next_renewal_at > least(?::timestamptz, (select min(test_clock_time) from organization))
        and s.next_renewal_at <= greatest(?::timestamptz, (select max(test_clock_time) from organization))
                                 + (? * interval '1 millisecond')
        and s.renewal_noticed_for is distinct from s.next_renewal_at
        and (?::uuid is null or s.organization_id = ?::uuid)
      order by s.next_renewal_at
      limit ?
      for update of s ${options.organizationId === null ? 'skip locked' : ''}`,
    [
      RENEWING_STATUS,
      options.now,
      options.now,
      options.noticeMs,
      options.now,
      options.now,
      options.noticeMs,
      options.organizationId,
      options.organizationId,
      options.limit,
    ],
  );
  return rows.map((row) => ({
    subscriptionId: row.id,
    organizationId: row.organization_id,
    renewalAt: new Date(row.next_renewal_at),
    snapshot: row.snapshot,
  }));
}

/** Records that the renewals' notices were made, by one statement. */
export async function markRenewalsNoticed(em: EntityManager, notices: readonly DueRenewalNotice[]): Promise<void> {
  if (notices.length === 0) return;
  await em.execute(
    `update account_subscription s set renewal_noticed_for = v.renewal_at
       from (values ${notices.map(() => '(?::uuid, ?::uuid, ?::timestamptz)').join(', ')}) as v(id, organization_id, renewal_at)
      where s.id = v.id and s.organization_id = v.organization_id`,
    notices.flatMap((notice) => [notice.subscriptionId, notice.organizationId, notice.renewalAt]),
  );
}

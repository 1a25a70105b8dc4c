import type { SubscriptionRow } from '../../db/entities/subscription.entity.js';
import type { ChangeScope } from '../change-transaction.js';

/**
 * The scope a call on these (locked) subscriptions acts in: at the later of the call's own time and
 * their last change. A call can reach a subscription after a change made at a later moment than its
 * own time: the test clock moved and processed the subscription while the call was on its way (the
 * call carries the clock's time when it was authenticated), or the scheduler renewed it while the
 * call waited for its row. Acting at the earlier time would work on a period that has already been
 * renewed (a change would bill the ended period and leave the new one at the old price); acting at
 * the later moment is what the call would have done had it been sent just after that change.
 */
export function afterLastChange(scope: ChangeScope, rows: readonly Pick<SubscriptionRow, 'updated_at'>[]): ChangeScope {
  const last = Math.max(...rows.map((row) => row.updated_at.getTime()));
  return rows.length > 0 ? scope.notBefore(new Date(last)) : scope;
}

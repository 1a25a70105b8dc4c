import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { LockMode } from '@mikro-orm/core';
import { OrganizationEntity } from '../db/entities/organization.entity.js';
import { checkAdvance } from '../domain/test-clock.js';
import { runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

export interface TestClockMove {
  time: Date;
  previousTime: Date;
  timeZone: string;
}

/**
 * Moves the calling organization's test clock to `to`. The organization row is locked first, so
 * two concurrent moves are serialised and the second is checked against the first's result.
 * An organization on the real clock has no test clock: NOT_FOUND, as the REST endpoint's 404.
 */
export async function advanceTestClock(deps: AccountsDeps, context: RequestContext, to: Date): Promise<TestClockMove> {
  return runChange(deps, context, async (scope) => {
    const organization = await scope.em.findOne(
      OrganizationEntity,
      { id: scope.organizationId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!organization?.test_clock_time) throw AppError.notFound();
    const previousTime = organization.test_clock_time;
    checkAdvance(previousTime, to);
    organization.test_clock_time = to;
    await scope.em.flush();
    scope.audit('organization.advance_test_clock', 'organization', organization.id, {
      from: previousTime.toISOString(),
      to: to.toISOString(),
    });
    return { time: to, previousTime, timeZone: organization.time_zone };
  });
}

import { accountsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { useAccountsService } from './support/accounts-service.js';

const accounts = useAccountsService(accountsV1.IdentityServiceClient);
const identity = accounts.client;
const START = new Date('2026-03-01T10:00:00.000Z');

const organization = (settings: Parameters<typeof accounts.organization>[0] = {}) =>
  accounts.organization({ name: 'Clock', ...settings });

describe('Authenticate', () => {
  it('answers the time zone always, and no time for an organization on the real clock', async () => {
    const { token } = await organization({ time_zone: 'America/New_York' });

    const reply = await identity.call('authenticate', { token });

    expect(reply.organization_time_zone).toBe('America/New_York');
    expect(reply.organization_time).toBeUndefined();
  });

  it("answers a test-mode organization's clock as it is at that moment", async () => {
    const { token, context } = await organization({ test_clock: { time: START } });
    expect((await identity.call('authenticate', { token })).organization_time).toEqual(START);

    await identity.call('advanceTestClock', { to: new Date('2026-03-02T00:00:00Z') }, { context });

    expect((await identity.call('authenticate', { token })).organization_time).toEqual(
      new Date('2026-03-02T00:00:00Z'),
    );
  });
});

describe('AdvanceTestClock', () => {
  it('answers the new and the previous time with the time zone; GetOrganization shows the clock', async () => {
    const { context } = await organization({ test_clock: { time: START }, time_zone: 'Europe/Stockholm' });

    expect(await identity.call('advanceTestClock', { to: new Date('2026-04-01T00:00:00Z') }, { context })).toEqual({
      time: new Date('2026-04-01T00:00:00Z'),
      previous_time: START,
      time_zone: 'Europe/Stockholm',
    });
    expect((await identity.call('getOrganization', {}, { context })).organization?.test_clock_time).toEqual(
      new Date('2026-04-01T00:00:00Z'),
    );
  });

  it('is NOT_FOUND for an organization on the real clock, and needs `to`', async () => {
    const normal = await organization();
    const testMode = await organization({ test_clock: { time: START } });

    await expect(identity.call('advanceTestClock', { to: START }, { context: normal.context })).rejects.toMatchObject({
      reason: 'NOT_FOUND',
    });
    await expect(identity.call('advanceTestClock', {}, { context: testMode.context })).rejects.toMatchObject({
      reason: 'VALIDATION_FAILED',
      fieldViolations: [{ field: 'to', description: 'This field is required.' }],
    });
  });

  it('serialises concurrent moves: the later time wins and an earlier one is never applied after it', async () => {
    for (let round = 0; round < 5; round++) {
      const { context, organizationId } = await organization({ test_clock: { time: START } });
      const later = new Date('2026-05-01T00:00:00Z');
      const earlier = new Date('2026-04-01T00:00:00Z');

      const outcomes = await Promise.allSettled([
        identity.call('advanceTestClock', { to: later }, { context }),
        identity.call('advanceTestClock', { to: earlier }, { context }),
      ]);

      expect(outcomes[0].status).toBe('fulfilled');
      const clockNow = (await identity.call('getOrganization', {}, { context })).organization?.test_clock_time;
      expect(clockNow).toEqual(later);
      // Either the earlier move ran first (two moves recorded) or it was refused (one).
      const moves = await accounts
        .service()
        .orm.em.getConnection()
        .execute<Array<{ details: { from: string; to: string } }>>(
          `select details from audit_log where organization_id = ? and action = 'organization.advance_test_clock' order by occurred_at, id`,
          [organizationId],
        );
      if (outcomes[1].status === 'fulfilled') {
        expect(moves.map((row) => row.details).sort((a, b) => a.to.localeCompare(b.to))).toEqual([
          { from: START.toISOString(), to: earlier.toISOString() },
          { from: earlier.toISOString(), to: later.toISOString() },
        ]);
      } else {
        expect(outcomes[1].reason).toMatchObject({ reason: 'VALIDATION_FAILED' });
        expect(moves.map((row) => row.details)).toEqual([{ from: START.toISOString(), to: later.toISOString() }]);
      }
    }
  });
});

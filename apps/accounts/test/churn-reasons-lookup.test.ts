/**
 * ChurnReasonService.GetChurnReasons over real gRPC against a real, migrated schema: what the
 * gateway uses to check and embed `churn_reason` on subscriptions, many uuids in one call.
 */
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { useAccountsService } from './support/accounts-service.js';

const accounts = useAccountsService(accountsV1.ChurnReasonServiceClient);
const client = accounts.client;

async function organization(): Promise<RequestContext> {
  return (await accounts.organization({ name: 'Churn' })).context;
}

async function reason(context: RequestContext, name: string, isActive = true): Promise<accountsV1.ChurnReason> {
  const input = { name, is_active: isActive };
  const reply = await client.call(
    'createChurnReason',
    { churn_reason: input, present_fields: Object.keys(input) },
    { context },
  );
  return reply.churn_reason!;
}

const lookup = async (context: RequestContext, uuids: string[]) =>
  (await client.call('getChurnReasons', { uuids }, { context })).churn_reasons;

describe('GetChurnReasons', () => {
  it('answers every reason asked for, in the order asked, inactive and deleted ones included', async () => {
    const context = await organization();
    const price = await reason(context, 'Price');
    const closed = await reason(context, 'Closed', false);
    const moved = await reason(context, 'Moved');
    await client.call('deleteChurnReason', { uuid: moved.uuid }, { context });

    expect(await lookup(context, [moved.uuid, price.uuid, closed.uuid])).toEqual([
      { uuid: moved.uuid, name: 'Moved', is_active: true, deleted: true },
      { uuid: price.uuid, name: 'Price', is_active: true, deleted: false },
      { uuid: closed.uuid, name: 'Closed', is_active: false, deleted: false },
    ]);
  });

  it("leaves out unknown uuids, text that is no uuid and other organizations' reasons; repeats once", async () => {
    const context = await organization();
    const other = await organization();
    const mine = await reason(context, 'Price');
    const theirs = await reason(other, 'Price');

    expect(await lookup(context, [theirs.uuid, 'price', '', randomUUID(), mine.uuid.toUpperCase(), mine.uuid])).toEqual(
      [{ uuid: mine.uuid, name: 'Price', is_active: true, deleted: false }],
    );
    expect(await lookup(context, [])).toEqual([]);
  });

  it('a deleted reason is gone everywhere else: Get is NOT_FOUND, the list leaves it out', async () => {
    const context = await organization();
    const kept = await reason(context, 'Kept');
    const gone = await reason(context, 'Gone');
    await client.call('deleteChurnReason', { uuid: gone.uuid }, { context });

    await expect(client.call('getChurnReason', { uuid: gone.uuid }, { context })).rejects.toMatchObject({
      reason: 'NOT_FOUND',
    });
    expect(await client.call('listChurnReasons', {}, { context })).toEqual({ count: 1, churn_reasons: [kept] });
  });

  it('text that is no uuid names no reason: NOT_FOUND for get, update and delete, not a failed query', async () => {
    const context = await organization();
    await reason(context, 'Price');

    for (const call of [
      () => client.call('getChurnReason', { uuid: 'price' }, { context }),
      () =>
        client.call(
          'updateChurnReason',
          { uuid: 'price', churn_reason: { name: 'Cost' }, present_fields: ['name'], replace: false },
          { context },
        ),
      () => client.call('deleteChurnReason', { uuid: 'price' }, { context }),
    ]) {
      await expect(call()).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    }
  });

  it('refuses a blank name from any caller, not only through REST', async () => {
    const context = await organization();

    await expect(
      client.call('createChurnReason', { churn_reason: { name: '  ' }, present_fields: ['name'] }, { context }),
    ).rejects.toMatchObject({
      reason: 'VALIDATION_FAILED',
      fieldViolations: [{ field: 'name', description: 'This field may not be blank.' }],
    });
  });
});

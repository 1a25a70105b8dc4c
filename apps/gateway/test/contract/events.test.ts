/**
 * Account events on the bus: creating, updating and deleting an account yields account.created,
 * account.updated and account.deleted for its organization and aggregate (the account uuid),
 * carrying the account's state; recipient changes yield account.updated; refused writes yield
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  accountInput,
  accountPath,
  createAccount,
  createRecipient,
  expectStatus,
  gatewaysPath,
  newOrganization,
  recipientPath,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

interface AccountEvent {
  event_type: string;
  organization_id: string;
  aggregate_id: string;
  /** The proto Account (snake_case fields). */
  account: Record<string, unknown>;
}

async function eventsOf(organizationId: string, aggregateId?: string): Promise<AccountEvent[]> {
  const events: AccountEvent[] = await platform().accountEvents();
  return events.filter(
    (event) =>
      event.organization_id === organizationId && (aggregateId === undefined || event.aggregate_id === aggregateId),
  );
}

describe('account events', () => {
  it('create, update and delete publish account.created, account.updated, account.deleted in order', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api, 'ev-1', { company_name: 'Before' });
    expectStatus(await api.patch(accountPath('ev-1'), { company_name: 'After' }), 200);
    expect((await api.delete(accountPath('ev-1'))).status).toBe(204);

    const events = await eventsOf(organizationId, account.uuid);

    expect(events.map((event) => event.event_type)).toEqual(['account.created', 'account.updated', 'account.deleted']);
    for (const event of events) {
      expect(event.organization_id).toBe(organizationId);
      expect(event.aggregate_id).toBe(account.uuid);
      expect(event.account.code).toBe('ev-1');
      expect(event.account.uuid).toBe(account.uuid);
    }
    expect(events[0]!.account.company_name).toBe('Before');
    expect(events[1]!.account.company_name).toBe('After');
    expect(events[2]!.account.company_name).toBe('After');
  });

  it('account.created carries the state the API returned', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api, 'ev-2', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      legal_country: 'GB',
      language: 'en',
      is_getting_reminders: false,
    });

    const [created] = await eventsOf(organizationId, account.uuid);

    expect(created).toMatchObject({
      event_type: 'account.created',
      organization_id: organizationId,
      aggregate_id: account.uuid,
      account: {
        uuid: account.uuid,
        code: 'ev-2',
        first_name: 'Ada',
        last_name: 'Lovelace',
        legal_country: 'GB',
        is_getting_reminders: false,
        display_name: 'Ada Lovelace',
      },
    });
  });

  it('a code change publishes account.updated with the new code on the same aggregate', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api, 'ev-old');
    expectStatus(await api.put(accountPath('ev-old'), accountInput('ev-new')), 200);

    const events = await eventsOf(organizationId, account.uuid);

    expect(events.map((event) => [event.event_type, event.account.code])).toEqual([
      ['account.created', 'ev-old'],
      ['account.updated', 'ev-new'],
    ]);
  });

  it('recipient create, update and delete publish account.updated for the account', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api, 'ev-rec');
    const recipient = await createRecipient(api, account.uuid, { name: 'First' });
    expectStatus(await api.patch(recipientPath(recipient.uuid), { name: 'Second' }), 200);
    expect((await api.delete(recipientPath(recipient.uuid))).status).toBe(204);

    const events = await eventsOf(organizationId, account.uuid);

    expect(events.map((event) => event.event_type)).toEqual([
      'account.created',
      'account.updated',
      'account.updated',
      'account.updated',
    ]);
    for (const event of events) expect(event.account.code).toBe('ev-rec');
  });

  it('refused and read-only requests publish nothing', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api, 'ev-quiet');
    expectStatus(await api.post(ACCOUNTS, accountInput('ev-quiet')), 400);
    expectStatus(await api.post(ACCOUNTS, { code: 'missing-fields' }), 400);
    expectStatus(await api.patch(accountPath('ev-quiet'), { legal_country: 'XX' }), 400);
    expectStatus(await api.patch(accountPath('ghost'), { company_name: 'x' }), 404);
    expectStatus(await api.get(accountPath('ev-quiet')), 200);
    expectStatus(await api.get(ACCOUNTS), 200);
    expectStatus(await api.get(gatewaysPath('ev-quiet')), 200);

    const events = await eventsOf(organizationId);

    expect(events.map((event) => [event.event_type, event.aggregate_id])).toEqual([['account.created', account.uuid]]);
  });

  it("events carry their own organization's id", async () => {
    const a = await newOrganization(platform());
    const b = await newOrganization(platform());
    const accountOfA = await createAccount(a.api, 'same-code');
    const accountOfB = await createAccount(b.api, 'same-code');

    const ofA = await eventsOf(a.organizationId);
    const ofB = await eventsOf(b.organizationId);

    expect(ofA.map((event) => event.aggregate_id)).toEqual([accountOfA.uuid]);
    expect(ofB.map((event) => event.aggregate_id)).toEqual([accountOfB.uuid]);
  });
});

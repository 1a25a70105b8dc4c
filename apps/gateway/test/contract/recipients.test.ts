/**
 * Recipients (gaps §4): /api/v1/recipients/ GET list (filter `account`), POST; /{uuid}/ GET, PUT,
 * PATCH, DELETE; and the account's recipient_set.
 */
import { describe, expect, it } from 'vitest';
import {
  accountPath,
  createAccount,
  createRecipient,
  expectedRecipient,
  expectStatus,
  NOT_FOUND,
  newOrganization,
  RECIPIENTS,
  REQUIRED,
  recipientInput,
  recipientPath,
  sortBy,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

describe('has_access_to_self_service (gaps.md §11)', () => {
  it("follows the organization's self_service feature, switched with the admin command line", async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api, 'self-service');
    const first = await createRecipient(api, account.uuid, { email: 'a@example.com' });
    const access = async () => {
      const list = await api.get(`${RECIPIENTS}?account=${account.uuid}`);
      const one = await api.get(recipientPath(first.uuid));
      const byCode = await api.get(accountPath(account.code));
      const accounts = await api.get(`/api/v1/accounts/?code=${account.code}`);
      for (const response of [list, one, byCode, accounts]) expectStatus(response, 200);
      return {
        list: list.body.results.map(
          (recipient: { has_access_to_self_service: boolean }) => recipient.has_access_to_self_service,
        ),
        detail: one.body.has_access_to_self_service,
        account: byCode.body.recipient_set.map(
          (recipient: { has_access_to_self_service: boolean }) => recipient.has_access_to_self_service,
        ),
        accountList: accounts.body.results[0].recipient_set.map(
          (recipient: { has_access_to_self_service: boolean }) => recipient.has_access_to_self_service,
        ),
      };
    };

    // On by default.
    expect(first.has_access_to_self_service).toBe(true);
    expect(await access()).toEqual({ list: [true], detail: true, account: [true], accountList: [true] });

    const off = await platform().admin('update-org', '--org', organizationId, '--feature', 'self_service=off');
    expect(off).toMatchObject({ features: { kickback: false, self_service: false } });
    const second = await createRecipient(api, account.uuid, { email: 'b@example.com' });
    expect(second.has_access_to_self_service).toBe(false);
    const patched = await api.patch(recipientPath(first.uuid), { name: 'Renamed' });
    expect(patched.body.has_access_to_self_service).toBe(false);
    expect(await access()).toEqual({
      list: [false, false],
      detail: false,
      account: [false, false],
      accountList: [false, false],
    });

    await platform().admin('update-org', '--org', organizationId, '--feature', 'self_service=on');
    expect(await access()).toEqual({
      list: [true, true],
      detail: true,
      account: [true, true],
      accountList: [true, true],
    });
  });
});

describe('POST /api/v1/recipients/', () => {
  it('creates a recipient: 201 with the full recipient', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-1');
    const input = recipientInput(account.uuid, {
      name: 'Billing Dept',
      email: 'billing@example.com',
      receive_invoice: true,
      receive_payment_confirmation: true,
      receive_subscription_notifications: false,
    });

    const response = await api.post(RECIPIENTS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedRecipient(input, account));
  });

  it('defaults the booleans to false', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-2');
    const input = { account: account.uuid, name: 'Plain', email: 'plain@example.com' };

    const response = await api.post(RECIPIENTS, input);

    expectStatus(response, 201);
    expect(response.body).toEqual(expectedRecipient(input, account));
    expect(response.body).toMatchObject({
      receive_invoice: false,
      receive_payment_confirmation: false,
      receive_payment_card_notifications: false,
      receive_subscription_notifications: false,
      has_access_to_self_service: true,
    });
  });

  it('ignores has_access_to_self_service sent by the client', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-3');

    const response = await api.post(RECIPIENTS, recipientInput(account.uuid, { has_access_to_self_service: false }));

    expectStatus(response, 201);
    expect(response.body.has_access_to_self_service).toBe(true);
  });

  it('requires account, name and email', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post(RECIPIENTS, { receive_invoice: true });

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [REQUIRED], name: [REQUIRED], email: [REQUIRED] });
  });

  it.each(['not-an-email', 'a@', '@example.com', 'two words@example.com'])('refuses the email %j', async (email) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-4');

    const response = await api.post(RECIPIENTS, recipientInput(account.uuid, { email }));

    expectStatus(response, 400);
    expect(response.body).toEqual({ email: ['Enter a valid email address.'] });
  });

  it.each([
    ['an unknown uuid', '0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11'],
    ['a malformed uuid', 'not-a-uuid'],
  ])('refuses %s as account with a field error, not 404', async (_label, accountUuid) => {
    const { api } = await newOrganization(platform());

    const response = await api.post(RECIPIENTS, recipientInput(accountUuid));

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [expect.any(String)] });
  });

  it("refuses another organization's account uuid with a field error", async () => {
    const a = await newOrganization(platform());
    const b = await newOrganization(platform());
    const accountOfA = await createAccount(a.api, 'rec-a');

    const response = await b.api.post(RECIPIENTS, recipientInput(accountOfA.uuid));

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [expect.any(String)] });
    expect((await a.api.get(accountPath('rec-a'))).body.recipient_set).toEqual([]);
  });
});

describe('GET /api/v1/recipients/{uuid}/', () => {
  it('returns the recipient', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-get');
    const created = await createRecipient(api, account.uuid);

    const response = await api.get(recipientPath(created.uuid));

    expectStatus(response, 200);
    expect(response.body).toEqual(created);
  });

  it.each(['0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11', 'not-a-uuid'])('answers 404 for %s', async (uuid) => {
    const { api } = await newOrganization(platform());

    const response = await api.get(recipientPath(uuid));

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('GET /api/v1/recipients/', () => {
  it('lists the recipients of the organization in an envelope, filtered by account', async () => {
    const { api } = await newOrganization(platform());
    const first = await createAccount(api, 'rec-list-1');
    const second = await createAccount(api, 'rec-list-2');
    const r1 = await createRecipient(api, first.uuid, { name: 'One' });
    const r2 = await createRecipient(api, first.uuid, { name: 'Two' });
    const r3 = await createRecipient(api, second.uuid, { name: 'Three' });

    const all = await api.get(RECIPIENTS);
    expectStatus(all, 200);
    expect(all.body.count).toBe(3);
    expect(all.body.next).toBeNull();
    expect(all.body.previous).toBeNull();
    expect(sortBy(all.body.results, 'name')).toEqual(sortBy([r1, r2, r3], 'name'));

    const filtered = await api.get(`${RECIPIENTS}?account=${first.uuid}`);
    expectStatus(filtered, 200);
    expect(filtered.body.count).toBe(2);
    expect(filtered.body.next).toBeNull();
    expect(filtered.body.previous).toBeNull();
    expect(sortBy(filtered.body.results, 'name')).toEqual(sortBy([r1, r2], 'name'));
  });

  it('paginates like every list', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-many');
    for (let i = 0; i < 3; i += 1) await createRecipient(api, account.uuid, { name: `R${i}` });

    const response = await api.get(`${RECIPIENTS}?account=${account.uuid}&page_size=2`);

    expectStatus(response, 200);
    expect(response.body.count).toBe(3);
    expect(response.body.results).toHaveLength(2);
    const next = new URL(response.body.next);
    expect(next.pathname).toBe(RECIPIENTS);
    expect(next.searchParams.get('account')).toBe(account.uuid);
    expect(next.searchParams.get('page')).toBe('2');
  });
});

describe('PUT and PATCH /api/v1/recipients/{uuid}/', () => {
  it('PUT replaces the recipient', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-put');
    const created = await createRecipient(api, account.uuid);
    const body = {
      account: account.uuid,
      name: 'Replaced',
      email: 'replaced@example.com',
      receive_invoice: false,
      receive_payment_confirmation: true,
      receive_subscription_notifications: false,
    };

    const response = await api.put(recipientPath(created.uuid), body);

    expectStatus(response, 200);
    expect(response.body).toEqual(expectedRecipient(body, account, { uuid: created.uuid }));
    expect((await api.get(recipientPath(created.uuid))).body).toEqual(response.body);
  });

  it('PUT requires account, name and email', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-put-2');
    const created = await createRecipient(api, account.uuid);

    const response = await api.put(recipientPath(created.uuid), { receive_invoice: false });

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [REQUIRED], name: [REQUIRED], email: [REQUIRED] });
    expect((await api.get(recipientPath(created.uuid))).body).toEqual(created);
  });

  it('PATCH changes only the fields sent', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-patch');
    const created = await createRecipient(api, account.uuid, { receive_invoice: true });

    const response = await api.patch(recipientPath(created.uuid), {
      receive_invoice: false,
      receive_payment_card_notifications: true,
    });

    expectStatus(response, 200);
    expect(response.body).toEqual({ ...created, receive_invoice: false, receive_payment_card_notifications: true });
  });

  it('PATCH validates the email and changes nothing on error', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-patch-2');
    const created = await createRecipient(api, account.uuid);

    const response = await api.patch(recipientPath(created.uuid), { name: 'New name', email: 'nope' });

    expectStatus(response, 400);
    expect(response.body).toEqual({ email: ['Enter a valid email address.'] });
    expect((await api.get(recipientPath(created.uuid))).body).toEqual(created);
  });

  it('answers 404 for an unknown recipient', async () => {
    const { api } = await newOrganization(platform());
    const unknown = recipientPath('0f6b0b7e-4e8a-4c55-9d55-3c1d2a9b7e11');

    const patched = await api.patch(unknown, { name: 'x' });
    expectStatus(patched, 404);
    expect(patched.body).toEqual(NOT_FOUND);
    const account = await createAccount(api, 'rec-404');
    const put = await api.put(unknown, recipientInput(account.uuid));
    expectStatus(put, 404);
    expect(put.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /api/v1/recipients/{uuid}/', () => {
  it('answers 204 with an empty body, after which the recipient is 404', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-del');
    const created = await createRecipient(api, account.uuid);

    const response = await api.delete(recipientPath(created.uuid));

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const read = await api.get(recipientPath(created.uuid));
    expectStatus(read, 404);
    expect(read.body).toEqual(NOT_FOUND);
    const again = await api.delete(recipientPath(created.uuid));
    expectStatus(again, 404);
    expect((await api.get(accountPath('rec-del'))).body.recipient_set).toEqual([]);
  });
});

describe("the account's recipient_set", () => {
  it('lists the full recipient objects and follows changes', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-set');
    const r1 = await createRecipient(api, account.uuid, { name: 'A' });
    const r2 = await createRecipient(api, account.uuid, { name: 'B' });

    const read = await api.get(accountPath('rec-set'));
    expectStatus(read, 200);
    expect(sortBy(read.body.recipient_set, 'name')).toEqual([r1, r2]);

    const patched = await api.patch(recipientPath(r1.uuid), { name: 'A2' });
    expectStatus(patched, 200);
    expect(sortBy((await api.get(accountPath('rec-set'))).body.recipient_set, 'name')).toEqual([patched.body, r2]);

    expect((await api.delete(recipientPath(r2.uuid))).status).toBe(204);
    expect((await api.get(accountPath('rec-set'))).body.recipient_set).toEqual([patched.body]);
  });

  it('follows the account code when the account is renamed', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-old-code');
    const created = await createRecipient(api, account.uuid);

    expectStatus(await api.patch(accountPath('rec-old-code'), { code: 'rec-new-code' }), 200);

    const read = await api.get(recipientPath(created.uuid));
    expect(read.body).toEqual({ ...created, account_code: 'rec-new-code' });
  });

  it("removes an account's recipients with the account", async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, 'rec-cascade');
    const created = await createRecipient(api, account.uuid);

    expect((await api.delete(accountPath('rec-cascade'))).status).toBe(204);

    expectStatus(await api.get(recipientPath(created.uuid)), 404);
    expect((await api.get(RECIPIENTS)).body.count).toBe(0);
  });
});

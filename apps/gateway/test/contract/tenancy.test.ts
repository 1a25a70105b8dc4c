/**
 * Tenancy: every object of organization A is invisible to organization B on every accounts
 * endpoint — 404 {"detail": "Not found."} (never 403), left out of lists and counts — and B's write
 * attempts change nothing of A's (verified with A's token afterwards).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestOrganization } from '../support/platform.js';
import {
  ACCOUNTS,
  accountInput,
  accountPath,
  createAccount,
  createRecipient,
  expectStatus,
  gatewaysPath,
  type Json,
  NOT_FOUND,
  newOrganization,
  RECIPIENTS,
  recipientInput,
  recipientPath,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

describe('organization B cannot see or touch organization A', () => {
  let a: TestOrganization;
  let b: TestOrganization;
  let accountOfA: Json & { uuid: string; code: string };
  let recipientOfA: Json & { uuid: string };
  let gatewaysOfA: unknown;

  /** A's view of its own data, to compare after each of B's attempts. */
  async function snapshotOfA() {
    const account = await a.api.get(accountPath('a-only'));
    const gateways = await a.api.get(gatewaysPath('a-only'));
    const recipient = await a.api.get(recipientPath(recipientOfA.uuid));
    const list = await a.api.get(ACCOUNTS);
    return { account: account.body, gateways: gateways.body, recipient: recipient.body, list: list.body };
  }
  let before: Awaited<ReturnType<typeof snapshotOfA>>;

  beforeAll(async () => {
    a = await newOrganization(platform(), { name: 'Org A' });
    b = await newOrganization(platform(), { name: 'Org B' });
    accountOfA = await createAccount(a.api, 'a-only', { company_name: 'A Corp', legal_country: 'SE' });
    recipientOfA = await createRecipient(a.api, accountOfA.uuid, { name: 'A Recipient' });
    const set = await a.api.post(gatewaysPath('a-only'), [
      { payment_gateway: 'noop', payment_gateway_account_id: 'a-gw' },
    ]);
    expectStatus(set, 200);
    gatewaysOfA = set.body;
    before = await snapshotOfA();
    expect(before.gateways).toEqual(gatewaysOfA);
  });

  async function expectAUnchanged(): Promise<void> {
    expect(await snapshotOfA()).toEqual(before);
  }

  async function expectNotFound(call: Promise<{ status: number; body: unknown; text: string }>): Promise<void> {
    const response = await call;
    expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
  }

  it('GET account is 404', async () => {
    await expectNotFound(b.api.get(accountPath('a-only')));
  });

  it('GET account with a Fields header is 404', async () => {
    await expectNotFound(b.api.get(accountPath('a-only'), { headers: { Fields: 'code' } }));
  });

  it('PUT account is 404 and changes nothing', async () => {
    await expectNotFound(b.api.put(accountPath('a-only'), accountInput('a-only', { company_name: 'Hijacked' })));
    await expectAUnchanged();
  });

  it('PATCH account is 404 and changes nothing', async () => {
    await expectNotFound(b.api.patch(accountPath('a-only'), { company_name: 'Hijacked', code: 'stolen' }));
    await expectAUnchanged();
  });

  it('DELETE account is 404 and changes nothing', async () => {
    await expectNotFound(b.api.delete(accountPath('a-only')));
    await expectAUnchanged();
  });

  it('GET payment-gateways is 404', async () => {
    await expectNotFound(b.api.get(gatewaysPath('a-only')));
  });

  it('POST payment-gateways is 404 and changes nothing', async () => {
    await expectNotFound(
      b.api.post(gatewaysPath('a-only'), [{ payment_gateway: 'cardgw_a', payment_gateway_account_id: 'b-gw' }]),
    );
    await expectAUnchanged();
  });

  it('GET recipient is 404', async () => {
    await expectNotFound(b.api.get(recipientPath(recipientOfA.uuid)));
  });

  it('PUT recipient is 404 and changes nothing', async () => {
    await expectNotFound(
      b.api.put(recipientPath(recipientOfA.uuid), recipientInput(accountOfA.uuid, { name: 'Hijacked' })),
    );
    await expectAUnchanged();
  });

  it('PATCH recipient is 404 and changes nothing', async () => {
    await expectNotFound(b.api.patch(recipientPath(recipientOfA.uuid), { email: 'attacker@example.com' }));
    await expectAUnchanged();
  });

  it('DELETE recipient is 404 and changes nothing', async () => {
    await expectNotFound(b.api.delete(recipientPath(recipientOfA.uuid)));
    await expectAUnchanged();
  });

  it("POST recipient for A's account is a 400 on account and changes nothing", async () => {
    const response = await b.api.post(RECIPIENTS, recipientInput(accountOfA.uuid));
    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [expect.any(String)] });
    await expectAUnchanged();
  });

  it("B's account list leaves A's accounts out, whatever the filter", async () => {
    for (const query of [
      '',
      `uuid=${accountOfA.uuid}`,
      'code=a-only',
      'search=A%20Corp',
      'legal_country=SE',
      'has_recipient_receiving_invoices=true',
      'type=company',
    ]) {
      const response = await b.api.get(`${ACCOUNTS}?${query}`);
      expectStatus(response, 200);
      expect({ query, body: response.body }).toEqual({
        query,
        body: { count: 0, next: null, previous: null, results: [] },
      });
    }
  });

  it("B's recipient list leaves A's recipients out", async () => {
    const all = await b.api.get(RECIPIENTS);
    expectStatus(all, 200);
    expect(all.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    const filtered = await b.api.get(`${RECIPIENTS}?account=${accountOfA.uuid}`);
    expectStatus(filtered, 200);
    expect(filtered.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it("B may use A's account code for its own account; each sees only its own", async () => {
    const own = await b.api.post(ACCOUNTS, accountInput('a-only', { company_name: 'B Corp' }));
    expectStatus(own, 201);
    expect(own.body.uuid).not.toBe(accountOfA.uuid);

    expect((await b.api.get(accountPath('a-only'))).body.company_name).toBe('B Corp');
    expect((await b.api.get(ACCOUNTS)).body.count).toBe(1);
    expect((await b.api.get(gatewaysPath('a-only'))).body).toEqual([]);
    await expectAUnchanged();

    expect((await b.api.delete(accountPath('a-only'))).status).toBe(204);
    await expectAUnchanged();
  });

  it("B cannot name A's account as reseller, by code or by uuid", async () => {
    const byCode = await b.api.post(ACCOUNTS, accountInput('b-resold-1', { reseller_code: 'a-only' }));
    expectStatus(byCode, 400);
    expect(byCode.body).toEqual({ reseller_code: [expect.any(String)] });

    const byUuid = await b.api.post(ACCOUNTS, accountInput('b-resold-2', { reseller: accountOfA.uuid }));
    expectStatus(byUuid, 400);
    expect(byUuid.body).toEqual({ reseller: [expect.any(String)] });

    expect((await b.api.get(ACCOUNTS)).body.count).toBe(0);
    const resellers = await a.api.get(`${ACCOUNTS}?reseller_program=true`);
    expect(resellers.body.count).toBe(0);
  });

  it("B cannot move its recipient onto A's account", async () => {
    const accountOfB = await createAccount(b.api, 'b-own');
    const recipientOfB = await createRecipient(b.api, accountOfB.uuid);

    const response = await b.api.patch(recipientPath(recipientOfB.uuid), { account: accountOfA.uuid });

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [expect.any(String)] });
    expect((await b.api.get(recipientPath(recipientOfB.uuid))).body).toEqual(recipientOfB);
    await expectAUnchanged();
  });

  it('a second token of A sees A; a token of B never does', async () => {
    const secondOfA = await platform().createToken(a.organizationId);
    const read = await secondOfA.api.get(accountPath('a-only'));
    expectStatus(read, 200);
    expect(read.body).toEqual(before.account);

    const secondOfB = await platform().createToken(b.organizationId);
    await expectNotFound(secondOfB.api.get(accountPath('a-only')));
  });
});

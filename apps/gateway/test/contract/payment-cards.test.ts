/**
 * Payment cards (gaps.md §11) through HTTP: registration by the noop gateway's tokens, the list
 * and its filters, disable, the account's paymentcard_set, the account and subscription filters on
 * the active payment method, the card events, the registration link's rules, and tenancy.
 */
import { describe, expect, it } from 'vitest';
import {
  accountPath,
  createAccount,
  expectStatus,
  type Json,
  listCodes,
  NOT_FOUND,
  newOrganization,
  REQUIRED,
  SCHEMA_PATTERN,
  UUID_PATTERN,
  usePlatform,
} from './helpers.js';
import { SUBSCRIPTIONS, subscriptionFixture, subscriptionInput } from './subscriptions-helpers.js';

const platform = usePlatform();
const CARDS = '/api/v1/paymentcards/';
const cardPath = (uuid: string) => `${CARDS}${uuid}/`;

const NOOP_VISA = {
  active: true,
  brand: 'visa',
  card_number: '**** **** **** 4242',
  month: 12,
  year: 2030,
  name: 'Noop Visa',
  payment_gateway: 'noop',
  payment_gateway_id: 'noop_visa',
};

function expectedCard(account: string, overrides: Json = {}): Json {
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    ...NOOP_VISA,
    account,
    model: 'paymentcard',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

describe('payment cards', () => {
  it('registers a noop card, shows it, lists it by account and active, and disables it here only', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api);
    const other = await createAccount(api);

    const created = await api.post(CARDS, { account: account.uuid, token: 'noop_visa', gateway: 'noop' });
    expectStatus(created, 201);
    expect(created.body).toEqual(expectedCard(account.uuid));
    const card = created.body as Json & { uuid: string };
    const mastercard = await api.post(CARDS, { account: other.uuid, token: 'noop_mastercard', gateway: 'noop' });
    expectStatus(mastercard, 201);
    expect(mastercard.body).toEqual(
      expectedCard(other.uuid, {
        brand: 'mastercard',
        card_number: '**** **** **** 4444',
        name: 'Noop Mastercard',
        payment_gateway_id: 'noop_mastercard',
      }),
    );

    expect((await api.get(cardPath(card.uuid))).body).toEqual(card);
    const byAccount = await api.get(`${CARDS}?account=${account.uuid}`);
    expect(byAccount.body).toEqual({ count: 1, next: null, previous: null, results: [card] });
    const all = await api.get(CARDS);
    // Newest first; the platform's clock stands still, so both share created_date and the uuid decides.
    expect((all.body.results as Json[]).map((item) => item.uuid)).toEqual(
      [mastercard.body.uuid as string, card.uuid].sort().reverse(),
    );

    // The account embeds its cards.
    const read = await api.get(accountPath(account.code as string));
    expect(read.body.paymentcard_set).toEqual([card]);

    const disabled = await api.post(`${cardPath(card.uuid)}disable/`, {});
    expectStatus(disabled, 200);
    expect(disabled.body).toEqual({ ...card, active: false });
    expect((await api.post(`${cardPath(card.uuid)}disable/`, {})).body).toEqual({ ...card, active: false });
    expect((await api.get(`${CARDS}?active=true`)).body.results).toEqual([mastercard.body]);
    expect((await api.get(`${CARDS}?active=false`)).body.results).toEqual([{ ...card, active: false }]);
    expect((await api.get(accountPath(account.code as string))).body.paymentcard_set).toEqual([
      { ...card, active: false },
    ]);

    const events = await platform().paymentEvents(organizationId);
    expect(events.map((event) => [event.event_type, event.aggregate_id, event.card?.active])).toEqual([
      ['payment_card.activated', card.uuid, true],
      ['payment_card.activated', mastercard.body.uuid, true],
      ['payment_card.deactivated', card.uuid, false],
    ]);
  });

  it('matches active_payment_method and account_active_payment_method on the account with an active card only', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const withCard = fixture.account as Json & { uuid: string; code: string };
    const without = await createAccount(api);
    const subscribe = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture));
    expectStatus(subscribe, 201);
    const otherSubscription = await api.post(
      SUBSCRIPTIONS,
      subscriptionInput({ code: without.code as string, terms: fixture.terms }),
    );
    expectStatus(otherSubscription, 201);

    expect(await listCodes(api, `active_payment_method=payment_card`)).toEqual([]);
    const card = await api.post(CARDS, { account: withCard.uuid, token: 'noop_visa', gateway: 'noop' });
    expectStatus(card, 201);

    expect(await listCodes(api, `active_payment_method=payment_card`)).toEqual([withCard.code]);
    expect((await listCodes(api, `active_payment_method=invoice`)).sort()).toEqual([without.code]);
    const cardSubscriptions = await api.get(`${SUBSCRIPTIONS}?account_active_payment_method=payment_card`);
    expect((cardSubscriptions.body.results as Json[]).map((item) => item.uuid)).toEqual([subscribe.body.uuid]);
    const invoiceSubscriptions = await api.get(`${SUBSCRIPTIONS}?account_active_payment_method=invoice`);
    expect((invoiceSubscriptions.body.results as Json[]).map((item) => item.uuid)).toEqual([
      otherSubscription.body.uuid,
    ]);

    expectStatus(await api.post(`${cardPath(card.body.uuid as string)}disable/`, {}), 200);
    expect(await listCodes(api, `active_payment_method=payment_card`)).toEqual([]);
    expect((await listCodes(api, `active_payment_method=invoice`)).sort()).toEqual(
      [withCard.code, without.code].sort(),
    );
  });

  it('answers 400 naming the field: gateway without credentials or not available, unknown token, account', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const post = (body: Json) => api.post(CARDS, { account: account.uuid, token: 'pm_card_visa', ...body });

    const withoutCredentials = await post({ gateway: 'cardgw_a' });
    expectStatus(withoutCredentials, 400);
    expect(withoutCredentials.body).toEqual({
      gateway: [
        'The organization has no credentials for the payment gateway cardgw_a; an operator sets them with the admin command line (set-gateway-credentials).',
      ],
    });
    for (const gateway of ['cardgw_b', 'cardgw_c', 'cardgw_c_easy']) {
      const unavailable = await post({ gateway });
      expectStatus(unavailable, 400);
      expect(unavailable.body).toEqual({
        gateway: [`The payment gateway ${gateway} is not available in this installation.`],
      });
    }
    const unknownToken = await post({ gateway: 'noop', token: 'noop_amex' });
    expectStatus(unknownToken, 400);
    expect(unknownToken.body).toEqual({
      token: ['Unknown noop token "noop_amex"; one of noop_visa, noop_mastercard, noop_declined.'],
    });
    const bad = await api.post(CARDS, { gateway: 'paypal' });
    expectStatus(bad, 400);
    expect(bad.body).toEqual({
      account: [REQUIRED],
      token: [REQUIRED],
      gateway: ['"paypal" is not a valid choice.'],
    });

    const stranger = await newOrganization(platform());
    const foreign = await stranger.api.post(CARDS, { account: account.uuid, token: 'noop_visa', gateway: 'noop' });
    expectStatus(foreign, 400);
    expect(foreign.body).toEqual({ account: [`Invalid pk "${account.uuid}" - object does not exist.`] });
  });

  it("answers 404 for another organization's card", async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const card = await api.post(CARDS, { account: account.uuid, token: 'noop_visa', gateway: 'noop' });
    const stranger = await newOrganization(platform());
    for (const response of [
      await stranger.api.get(cardPath(card.body.uuid as string)),
      await stranger.api.post(`${cardPath(card.body.uuid as string)}disable/`, {}),
    ]) {
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    expect((await stranger.api.get(CARDS)).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await api.get(cardPath(card.body.uuid as string))).body.active).toBe(true);
  });

  it('registers the card chosen on the noop page exactly once, then sends the customer to redirect_url', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api);
    const redirect = 'https://shop.example/cards/done?order=7';
    const link = await api.get(
      `${accountPath(account.code as string)}card-registration-link/noop/?redirect_url=${encodeURIComponent(redirect)}`,
    );
    expectStatus(link, 200);
    const url = link.body.url as string;
    const form = await fetch(url);
    expect(form.status).toBe(200);
    expect(form.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await form.text();
    expect(html).toContain('<input type="radio" name="token" value="noop_mastercard">');

    const submit = () =>
      fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=noop_mastercard',
      });
    const [first, second] = await Promise.all([submit(), submit()]);
    for (const response of [first, second, await submit()]) {
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(redirect);
    }
    const cards = await api.get(`${CARDS}?account=${account.uuid}`);
    expect(cards.body.results).toEqual([
      expectedCard(account.uuid as string, {
        brand: 'mastercard',
        card_number: '**** **** **** 4444',
        name: 'Noop Mastercard',
        payment_gateway_id: 'noop_mastercard',
      }),
    ]);
    expect((await api.get(accountPath(account.code as string))).body.paymentcard_set).toEqual(cards.body.results);
    const events = await platform().paymentEvents(organizationId);
    expect(events.map((event) => event.event_type)).toEqual(['payment_card.activated']);
    expect(await (await fetch(url)).text()).toContain('Card **** **** **** 4444 is registered.');

    const unknown = await fetch(`${platform().baseUrl}/payments/noop/00000000-0000-4000-8000-000000000000/`);
    expect(unknown.status).toBe(404);
    const badToken = await fetch(url.replace(/[0-9a-f-]{36}\/$/, '11111111-1111-4111-8111-111111111111/'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=noop_amex',
    });
    expect(badToken.status).toBe(404);
  });

  it('gives a registration link by the spec rules of each gateway, on both path forms', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const code = account.code as string;
    const redirect = encodeURIComponent('https://shop.example/cards/done');
    for (const form of ['card-registration-link', 'card_registration_link']) {
      const link = await api.get(`${accountPath(code)}${form}/noop/?redirect_url=${redirect}`);
      expectStatus(link, 200);
      expect(link.body).toEqual({
        url: expect.stringMatching(new RegExp(`^${platform().baseUrl}/payments/noop/[0-9a-f-]{36}/$`)),
      });
    }
    const missing = await api.get(`${accountPath(code)}card-registration-link/noop/`);
    expectStatus(missing, 400);
    expect(missing.body).toEqual({ redirect_url: [REQUIRED] });
    const cardgwB = await api.get(`${accountPath(code)}card-registration-link/cardgw_b/?redirect_url=${redirect}`);
    expectStatus(cardgwB, 400);
    expect(cardgwB.body).toEqual({ currency: [REQUIRED] });
    const cardgwBComplete = await api.get(
      `${accountPath(code)}card-registration-link/cardgw_b/?redirect_url=${redirect}&currency=DKK`,
    );
    expectStatus(cardgwBComplete, 400);
    expect(cardgwBComplete.body).toEqual({
      gateway: ['The payment gateway cardgw_b is not available in this installation.'],
    });
    const easy = await api.get(`${accountPath(code)}card-registration-link/cardgw_c_easy/?currency=SEK`);
    expectStatus(easy, 400);
    expect(easy.body).toEqual({
      gateway: ['The payment gateway cardgw_c_easy is not available in this installation.'],
    });
    const badCurrency = await api.get(`${accountPath(code)}card-registration-link/cardgw_c_easy/?currency=GBP`);
    expect(badCurrency.body).toEqual({ currency: ['"GBP" is not a valid choice.'] });
    expectStatus(await api.get(`${accountPath('nope')}card-registration-link/noop/?redirect_url=${redirect}`), 404);
    expectStatus(await api.get(`${accountPath(code)}card-registration-link/paypal/?redirect_url=${redirect}`), 404);
  });
});

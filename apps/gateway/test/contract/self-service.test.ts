/**
 * Self-service (api-spec "Self-service link", gaps.md §11) through HTTP: POST
 * /api/self-service/initiate-organization/ and its refusals, the sign-in link (single use, one
 * hour on the organization's clock), the session, and the customer's page: invoices with their
 * PDF, subscriptions and payment cards (disable; add through the noop card-entry page), tenancy,
 * the self_service feature flag and the account's language.
 */
import { describe, expect, it } from 'vitest';
import {
  accountPath,
  createAccount,
  createRecipient,
  expectStatus,
  gatewaysPath,
  INVALID_TOKEN,
  newOrganization,
  REQUIRED,
  usePlatform,
} from './helpers.js';
import { invoicePath } from './invoices-helpers.js';
import {
  customerFixture,
  headline,
  INITIATE,
  NO_ACCESS,
  SelfServiceClient,
  selfServiceLink,
  tableRows,
} from './self-service-helpers.js';
import { clockOrganization } from './subscriptions-helpers.js';

const platform = usePlatform();
const CARDS = '/api/v1/paymentcards/';
const START = '2026-01-15T09:00:00.000Z';
const accountPage = (uuid: string) => `/self-service/accounts/${uuid}/`;

describe('POST /api/self-service/initiate-organization/', () => {
  it('gives a sign-in URL for a recipient e-mail, in either case, on both path forms', async () => {
    const { api, organizationId, apiUserId } = await newOrganization(platform());
    const account = await createAccount(api);
    await createRecipient(api, account.uuid as string, { email: 'Ada@Example.com' });

    await selfServiceLink(api, 'ada@example.com');
    await selfServiceLink(api, '  ADA@example.COM ');
    // The audit row names the account the link opens, not the e-mail.
    const initiated = (await platform().auditLog(organizationId)).filter((e) => e.action === 'self_service.initiate');
    expect(
      initiated.map(({ api_user_id, client_system, object_type }) => ({ api_user_id, client_system, object_type })),
    ).toEqual([
      { api_user_id: apiUserId, client_system: 'contract-tests', object_type: 'self_service_sign_in' },
      { api_user_id: apiUserId, client_system: 'contract-tests', object_type: 'self_service_sign_in' },
    ]);
    const twin = await api.post('/api/self_service/initiate_organization/', { email: 'ada@example.com' });
    expectStatus(twin, 200);
    expect(Object.keys(twin.body)).toEqual(['url']);
  });

  it('refuses with 400 naming email: missing, blank, not an e-mail, no recipient, another organization', async () => {
    const { api } = await newOrganization(platform());
    const other = await newOrganization(platform());
    const account = await createAccount(other.api);
    await createRecipient(other.api, account.uuid as string, { email: 'other@example.com' });

    const cases: Array<[unknown, unknown]> = [
      [{}, { email: [REQUIRED] }],
      [{ email: null }, { email: ['This field may not be null.'] }],
      [{ email: '' }, { email: ['This field may not be blank.'] }],
      [{ email: 'not-an-email' }, { email: ['Enter a valid email address.'] }],
      [{ email: 'nobody@example.com' }, { email: [NO_ACCESS] }],
      // A recipient of another organization's account is nobody here.
      [{ email: 'other@example.com' }, { email: [NO_ACCESS] }],
    ];
    for (const [body, expected] of cases) {
      const response = await api.post(INITIATE, body);
      expectStatus(response, 400);
      expect(response.body).toEqual(expected);
    }
  });

  it('needs a token, answers only POST and refuses while the self_service feature is off', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api);
    await createRecipient(api, account.uuid as string, { email: 'flag@example.com' });

    const anonymous = await api.raw(INITIATE, {
      method: 'POST',
      headers: { 'X-Client-System': 'tests', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'flag@example.com' }),
    });
    expectStatus(anonymous, 401);
    expect(anonymous.body).toEqual(INVALID_TOKEN);
    const get = await api.get(INITIATE);
    expectStatus(get, 405);
    expect(get.body).toEqual({ detail: 'Method "GET" not allowed.' });

    const before = await selfServiceLink(api, 'flag@example.com');
    await platform().admin('update-org', '--org', organizationId, '--feature', 'self_service=off');
    const off = await api.post(INITIATE, { email: 'flag@example.com' });
    expectStatus(off, 400);
    expect(off.body).toEqual({ email: [NO_ACCESS] });
    // A link made before cannot sign in while the feature is off, and is not used up by trying.
    const browser = new SelfServiceClient(platform().baseUrl);
    const refused = await browser.post(before);
    expectStatus(refused, 403);
    expect(headline(refused.text).message).toBe('Self-service is not available.');
    expect(browser.hasCookie).toBe(false);
    await platform().admin('update-org', '--org', organizationId, '--feature', 'self_service=on');
    expect(await browser.signIn(before)).toBe('/self-service/');
  });
});

describe('the sign-in link', () => {
  it('signs in once: a click on the page uses it up and sets the session cookie', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, undefined, { company_name: 'Once ApS' });
    await createRecipient(api, account.uuid as string, { email: 'once@example.com' });
    const link = await selfServiceLink(api, 'once@example.com');
    const browser = new SelfServiceClient(platform().baseUrl);

    // Opening the link (as a mail scanner would) does not use it.
    for (let i = 0; i < 2; i += 1) {
      const page = await browser.get(link);
      expectStatus(page, 200);
      expect(headline(page.text)).toEqual({
        lang: 'en',
        h1: 'Sign in',
        message: 'Sign in to see your invoices and subscriptions and to manage your payment cards.',
      });
      expect(page.text).toContain('<form method="post"><button type="submit">Sign in</button></form>');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.headers.get('cache-control')).toBe('no-store');
    }

    const signIn = await browser.post(link);
    expectStatus(signIn, 303);
    expect(signIn.headers.get('location')).toBe('/self-service/');
    expect(signIn.headers.get('set-cookie')).toMatch(
      /^billing_self_service=[A-Za-z0-9_-]{43}; Path=\/self-service\/; HttpOnly; SameSite=Lax$/,
    );
    const root = await browser.get('/self-service/');
    expectStatus(root, 303);
    expect(root.headers.get('location')).toBe(accountPage(account.uuid as string));

    // Used: the page and a second sign-in say so (410), in another browser too.
    const again = new SelfServiceClient(platform().baseUrl);
    for (const response of [await again.get(link), await again.post(link)]) {
      expectStatus(response, 410);
      expect(headline(response.text)).toEqual({
        lang: 'en',
        h1: 'Sign in',
        message: 'This sign-in link was already used.',
      });
    }
    expect(again.hasCookie).toBe(false);

    const unknown = await again.get(`/self-service/sign-in/${'x'.repeat(43)}/`);
    expectStatus(unknown, 404);
    expect(headline(unknown.text).message).toBe('This sign-in link is not valid.');
  });

  it("runs out one hour after it was made, on the organization's clock; the session two hours after sign-in", async () => {
    const organization = await clockOrganization(platform(), START);
    const { api } = organization;
    const account = await createAccount(api);
    await createRecipient(api, account.uuid as string, { email: 'clock@example.com' });

    const late = await selfServiceLink(api, 'clock@example.com');
    const early = await selfServiceLink(api, 'clock@example.com');
    await organization.advance('2026-01-15T09:59:59.000Z');
    const browser = new SelfServiceClient(platform().baseUrl);
    expect(await browser.signIn(early)).toBe('/self-service/');
    // Using one link leaves the other valid until its own hour is over.
    expectStatus(await browser.get(late), 200);

    await organization.advance('2026-01-15T10:00:00.000Z');
    const expired = await browser.get(late);
    expectStatus(expired, 410);
    expect(headline(expired.text).message).toBe('This sign-in link has expired.');
    expectStatus(await new SelfServiceClient(platform().baseUrl).post(late), 410);

    // Signed in at 09:59:59: open until 11:59:59.
    await organization.advance('2026-01-15T11:59:58.000Z');
    expectStatus(await browser.get(accountPage(account.uuid as string)), 200);
    await organization.advance('2026-01-15T11:59:59.000Z');
    const over = await browser.get(accountPage(account.uuid as string));
    expectStatus(over, 401);
    expect(headline(over.text)).toEqual({
      lang: 'en',
      h1: 'Sign in',
      message: 'You are not signed in, or your session has ended.',
    });
  });

  it('signs in exactly once when two browsers use the link at the same moment', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    await createRecipient(api, account.uuid as string, { email: 'race@example.com' });
    const link = await selfServiceLink(api, 'race@example.com');
    const browsers = [new SelfServiceClient(platform().baseUrl), new SelfServiceClient(platform().baseUrl)];
    const answers = await Promise.all(browsers.map((browser) => browser.post(link)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 410]);
    expect(browsers.map((browser) => browser.hasCookie).sort()).toEqual([false, true]);
  });

  it('refuses a sign-in form posted from another site', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    await createRecipient(api, account.uuid as string, { email: 'csrf@example.com' });
    const link = await selfServiceLink(api, 'csrf@example.com');
    const browser = new SelfServiceClient(platform().baseUrl);
    expectStatus(await browser.post(link, {}, 'https://evil.example'), 403);
    expect(browser.hasCookie).toBe(false);
    // The refused attempt did not use the link.
    expect(await browser.signIn(link)).toBe('/self-service/');
  });
});

describe('the self-service page', () => {
  it("shows the account's invoices, subscriptions and cards and serves each invoice's PDF", async () => {
    const { api } = await newOrganization(platform());
    const customer = await customerFixture(api, 'page@example.com');
    const visa = await api.post(CARDS, { account: customer.account.uuid, token: 'noop_visa', gateway: 'noop' });
    expectStatus(visa, 201);
    const browser = new SelfServiceClient(platform().baseUrl);
    await browser.signIn(await selfServiceLink(api, 'page@example.com'));

    const page = await browser.get(accountPage(customer.account.uuid as string));
    expectStatus(page, 200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https:; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(headline(page.text)).toMatchObject({ lang: 'en', h1: 'Acme ApS' });
    const { invoice, subscription } = customer;
    expect(tableRows(page.text, 'invoices')).toEqual([
      [String(invoice.invoice_number), invoice.date, invoice.due_date, '125.00 DKK', 'Open', 'Download PDF'],
    ]);
    const read = (await api.get(`/api/v1/subscriptions/${subscription.uuid}/`)).body;
    expect(tableRows(page.text, 'subscriptions')).toEqual([
      ['Pro', '1', '100.00 DKK', 'Active', (read.next_renewal_date as string).slice(0, 10)],
    ]);
    expect(tableRows(page.text, 'cards')).toEqual([['visa **** **** **** 4242', '12/2030', 'Active', 'Disable']]);
    // No gateway is set up for the account: cards cannot be added here.
    expect(page.text).toContain('<p>Cards cannot be added here; please contact us.</p>');

    const pdf = await browser.get(`${accountPage(customer.account.uuid as string)}invoices/${invoice.uuid}/pdf/`);
    expectStatus(pdf, 200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="invoice-${invoice.invoice_number}.pdf"`);
    const fromApi = (await api.get(invoicePath(invoice.uuid))).body.pdf_base64 as string;
    expect((pdf.body as Buffer).toString('base64')).toBe(fromApi);
  });

  it('disables a card of the account; a card, invoice or account not its own is 404', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const customer = await customerFixture(api, 'owner@example.com');
    const neighbour = await customerFixture(api, 'neighbour@example.com');
    const foreign = await newOrganization(platform());
    const stranger = await customerFixture(foreign.api, 'owner@example.com');
    const card = (await api.post(CARDS, { account: customer.account.uuid, token: 'noop_visa', gateway: 'noop' })).body;
    const theirs = (await api.post(CARDS, { account: neighbour.account.uuid, token: 'noop_visa', gateway: 'noop' }))
      .body;
    const browser = new SelfServiceClient(platform().baseUrl);
    await browser.signIn(await selfServiceLink(api, 'owner@example.com'));
    const mine = accountPage(customer.account.uuid as string);

    const notFound = [
      await browser.get(accountPage(neighbour.account.uuid as string)),
      await browser.get(accountPage(stranger.account.uuid as string)),
      await browser.get(`${mine}invoices/${neighbour.invoice.uuid}/pdf/`),
      await browser.get(`${mine}invoices/${stranger.invoice.uuid}/pdf/`),
      await browser.get(`${mine}invoices/not-a-uuid/pdf/`),
      await browser.post(`${mine}cards/${theirs.uuid}/disable/`),
      await browser.post(`${mine}cards/not-a-uuid/disable/`),
      await browser.post(`${accountPage(neighbour.account.uuid as string)}cards/${theirs.uuid}/disable/`),
    ];
    for (const response of notFound) {
      expectStatus(response, 404);
      expect(headline(response.text)).toMatchObject({ h1: 'Not found.', message: 'Not found.' });
    }
    expect((await api.get(`${CARDS}${theirs.uuid}/`)).body.active).toBe(true);

    expectStatus(await browser.post(`${mine}cards/${card.uuid}/disable/`, {}, 'https://evil.example'), 403);
    expect((await api.get(`${CARDS}${card.uuid}/`)).body.active).toBe(true);

    const disabled = await browser.post(`${mine}cards/${card.uuid}/disable/`);
    expectStatus(disabled, 303);
    // Recorded as the customer: client system self-service, the e-mail as external user, no API user.
    const disables = (await platform().paymentsAuditLog(organizationId)).filter(
      (entry) => entry.action === 'payment_card.disable',
    );
    expect(disables).toEqual([
      {
        organization_id: organizationId,
        api_user_id: null,
        client_system: 'self-service',
        external_user: 'owner@example.com',
        request_id: disabled.headers.get('x-request-id'),
        action: 'payment_card.disable',
        object_type: 'payment_card',
        object_id: card.uuid,
      },
    ]);
    expect(disabled.headers.get('location')).toBe(`${mine}?notice=card_disabled`);
    expect((await api.get(`${CARDS}${card.uuid}/`)).body).toMatchObject({ uuid: card.uuid, active: false });
    const page = await browser.get(`${mine}?notice=card_disabled`);
    expect(page.text).toContain('<p class="notice">The card is disabled.</p>');
    expect(tableRows(page.text, 'cards')).toEqual([['visa **** **** **** 4242', '12/2030', 'Disabled', '']]);
  });

  it("adds a card through the noop card-entry page when the account's gateway is noop", async () => {
    const { api } = await newOrganization(platform());
    const customer = await customerFixture(api, 'adder@example.com');
    const gateways = await api.post(gatewaysPath(customer.code), [
      { payment_gateway: 'cardgw_b', payment_gateway_account_id: 'sub_1' },
      { payment_gateway: 'noop', payment_gateway_account_id: 'adder' },
    ]);
    expectStatus(gateways, 200);
    const browser = new SelfServiceClient(platform().baseUrl);
    await browser.signIn(await selfServiceLink(api, 'adder@example.com'));
    const mine = accountPage(customer.account.uuid as string);
    expect((await browser.get(mine)).text).toContain(
      `<form method="post" action="${mine}cards/add/"><button type="submit">Add a card</button></form>`,
    );

    const add = await browser.post(`${mine}cards/add/`);
    expectStatus(add, 303);
    const cardPage = add.headers.get('location')!;
    expect(cardPage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/payments\/noop\/[0-9a-f-]{36}\/$/);
    const registered = await browser.post(cardPage, { token: 'noop_mastercard' });
    expectStatus(registered, 303);
    expect(registered.headers.get('location')).toBe(`${platform().baseUrl}${mine}?notice=card_added`);

    const page = await browser.get(`${mine}?notice=card_added`);
    expect(page.text).toContain('<p class="notice">Your card is registered.</p>');
    expect(tableRows(page.text, 'cards')).toEqual([['mastercard **** **** **** 4444', '12/2030', 'Active', 'Disable']]);
    const cards = await api.get(`${CARDS}?account=${customer.account.uuid}`);
    expect(cards.body.results).toMatchObject([{ payment_gateway: 'noop', payment_gateway_id: 'noop_mastercard' }]);
  });

  it('refuses to add a card to an account without a gateway for it', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    await createRecipient(api, account.uuid as string, { email: 'nogw@example.com' });
    const browser = new SelfServiceClient(platform().baseUrl);
    await browser.signIn(await selfServiceLink(api, 'nogw@example.com'));
    const refused = await browser.post(`${accountPage(account.uuid as string)}cards/add/`);
    expectStatus(refused, 403);
    expect(headline(refused.text).message).toBe('Cards cannot be added here; please contact us.');
  });

  it("is in the account's language where the texts exist (da), else English", async () => {
    const { api } = await newOrganization(platform());
    const customer = await customerFixture(api, 'dansk@example.com', { language: 'da', company_name: 'Dansk ApS' });
    const link = await selfServiceLink(api, 'dansk@example.com');
    const browser = new SelfServiceClient(platform().baseUrl);
    expect(headline((await browser.get(link)).text)).toEqual({
      lang: 'da',
      h1: 'Log ind',
      message: 'Log ind for at se dine fakturaer og abonnementer og administrere dine betalingskort.',
    });
    await browser.signIn(link);
    const page = await browser.get(accountPage(customer.account.uuid as string));
    expect(headline(page.text)).toMatchObject({ lang: 'da', h1: 'Dansk ApS' });
    expect(page.text).toContain('<h2>Fakturaer</h2>');
    expect(tableRows(page.text, 'invoices')[0]).toEqual([
      String(customer.invoice.invoice_number),
      customer.invoice.date,
      customer.invoice.due_date,
      '125.00 DKK',
      'Åben',
      'Hent PDF',
    ]);
    expect(page.text).toContain('<p>Kort kan ikke tilføjes her; kontakt os.</p>');

    const german = await customerFixture(api, 'deutsch@example.com', { language: 'de' });
    const other = new SelfServiceClient(platform().baseUrl);
    await other.signIn(await selfServiceLink(api, 'deutsch@example.com'));
    expect(headline((await other.get(accountPage(german.account.uuid as string))).text).lang).toBe('en');
  });

  it('lets an e-mail on several accounts choose one; follows recipients, the feature flag and sign-out', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const first = await createAccount(api, undefined, { company_name: 'First ApS' });
    // Oldest first: the second a second later (the platform's clock stands still otherwise).
    platform().clock.advanceMs(1_000);
    const second = await createAccount(api, undefined, { company_name: 'Second ApS' });
    await createRecipient(api, first.uuid as string, { email: 'both@example.com' });
    const recipient = await createRecipient(api, second.uuid as string, { email: 'BOTH@example.com' });
    const browser = new SelfServiceClient(platform().baseUrl);
    await browser.signIn(await selfServiceLink(api, 'both@example.com'));

    const chooser = await browser.get('/self-service/');
    expectStatus(chooser, 200);
    expect(headline(chooser.text).h1).toBe('Choose an account');
    expect([...chooser.text.matchAll(/<li><a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]])).toEqual([
      [accountPage(first.uuid as string), 'First ApS'],
      [accountPage(second.uuid as string), 'Second ApS'],
    ]);

    // A recipient removed takes its account away at once.
    expectStatus(await api.delete(`/api/v1/recipients/${recipient.uuid}/`), 204);
    expectStatus(await browser.get(accountPage(second.uuid as string)), 404);
    expect((await browser.get('/self-service/')).headers.get('location')).toBe(accountPage(first.uuid as string));

    await platform().admin('update-org', '--org', organizationId, '--feature', 'self_service=off');
    const off = await browser.get(accountPage(first.uuid as string));
    expectStatus(off, 403);
    expect(headline(off.text).message).toBe('Self-service is not available.');
    await platform().admin('update-org', '--org', organizationId, '--feature', 'self_service=on');
    expectStatus(await browser.get(accountPage(first.uuid as string)), 200);

    const out = await browser.post('/self-service/sign-out/');
    expectStatus(out, 200);
    expect(out.headers.get('set-cookie')).toBe(
      'billing_self_service=; Path=/self-service/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    );
    expect(headline(out.text).message).toBe('You are signed out.');
    expectStatus(await browser.get(accountPage(first.uuid as string)), 401);
    expect((await api.get(accountPath(first.code as string))).status).toBe(200);
  });
});

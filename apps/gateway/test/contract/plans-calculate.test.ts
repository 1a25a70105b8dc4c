/**
 * POST /api/v1/plans/calculate/ (gaps.md §5, VAT by gaps.md §7): `{terms, quantity, account_code?,
 * account_country_code?}` → 200 `{currency, unit_price, discount, quantity, subtotal, vat_rate, vat,
 * total}` plus `reverse_charge`, `vat_reason`, `model`, `schema`. The platform clock stands at
 * 2026-01-15 09:00Z; organizations are Danish (25 %) unless a test says otherwise.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestOrganization } from '../support/platform.js';
import {
  createAccount,
  createContract,
  createPlan,
  createPlanTerms,
  createTier,
  expectStatus,
  type Json,
  newOrganization,
  planTermsPath,
  REQUIRED,
  SCHEMA_PATTERN,
  uniqueCode,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();
const CALCULATE = '/api/v1/plans/calculate/';
const NOW = '2026-01-15T09:00:00Z';

/** The whole answer; amounts as decimal strings. */
function quote(fields: Json): Json {
  return {
    currency: 'DKK',
    unit_price: '100.00',
    discount: '0.00',
    quantity: 2,
    subtotal: '200.00',
    vat_rate: '25.00',
    vat: '50.00',
    total: '250.00',
    reverse_charge: false,
    vat_reason: 'domestic',
    model: 'plan_calculation',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...fields,
  };
}

async function calculate(api: ApiClient, body: Json): Promise<Json> {
  const response = await api.post(CALCULATE, body);
  expectStatus(response, 200);
  return response.body;
}

/** A plan (collect_vat true unless overridden) with 100.00 DKK monthly terms unless overridden. */
async function termsFor(api: ApiClient, terms: Json = {}, plan: Json = {}): Promise<string> {
  const created = await createPlan(api, uniqueCode('plan'), plan);
  return (await createPlanTerms(api, created.uuid, terms)).uuid;
}

describe('POST /api/v1/plans/calculate/', () => {
  let org: TestOrganization;
  let terms: string;

  beforeAll(async () => {
    org = await newOrganization(platform());
    terms = await termsFor(org.api);
  });

  describe('VAT (gaps.md §7)', () => {
    it('Danish organization, Danish account: 100.00 × 2 → 200.00 + 25 % = 250.00', async () => {
      const account = await createAccount(org.api, uniqueCode(), { company_name: 'Acme ApS' });

      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(quote({}));
    });

    it('Danish account with a VAT number: still the Danish rate (no reverse charge at home)', async () => {
      const account = await createAccount(org.api, uniqueCode(), { legal_vat_number: 'DK12345678' });

      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(quote({}));
    });

    it('German company with a VAT number: 0, reverse charge', async () => {
      const account = await createAccount(org.api, uniqueCode(), {
        company_name: 'Beispiel GmbH',
        type: 'company',
        legal_country: 'DE',
        legal_vat_number: 'DE123456789',
      });

      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(
        quote({
          vat_rate: '0.00',
          vat: '0.00',
          total: '200.00',
          reverse_charge: true,
          vat_reason: 'eu_reverse_charge',
        }),
      );
    });

    it("German account without a VAT number: the organization's rate", async () => {
      const account = await createAccount(org.api, uniqueCode(), { legal_country: 'DE' });

      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(
        quote({ vat_reason: 'eu_no_vat_number' }),
      );
    });

    it("German account whose VAT number has not the German format: the organization's rate", async () => {
      const account = await createAccount(org.api, uniqueCode(), {
        legal_country: 'DE',
        legal_vat_number: 'DE12345',
      });

      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(
        quote({ vat_reason: 'eu_invalid_vat_number' }),
      );
    });

    it('US account: 0', async () => {
      const account = await createAccount(org.api, uniqueCode(), {
        legal_country: 'US',
        legal_vat_number: '12-3456789',
      });

      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(
        quote({ vat_rate: '0.00', vat: '0.00', total: '200.00', vat_reason: 'outside_eu' }),
      );
    });

    it('account_country_code: a person in that country (no VAT number)', async () => {
      expect(await calculate(org.api, { terms, quantity: 2, account_country_code: 'US' })).toEqual(
        quote({ vat_rate: '0.00', vat: '0.00', total: '200.00', vat_reason: 'outside_eu' }),
      );
      expect(await calculate(org.api, { terms, quantity: 2, account_country_code: 'DE' })).toEqual(
        quote({ vat_reason: 'eu_no_vat_number' }),
      );
      expect(await calculate(org.api, { terms, quantity: 2, account_country_code: 'DK' })).toEqual(quote({}));
    });

    it("neither (or both null): a person in the organization's own country", async () => {
      expect(await calculate(org.api, { terms, quantity: 2 })).toEqual(quote({}));
      expect(await calculate(org.api, { terms, quantity: 2, account_code: null, account_country_code: null })).toEqual(
        quote({}),
      );
    });

    it('account_code and account_country_code both given: the account decides', async () => {
      const account = await createAccount(org.api, uniqueCode(), {
        legal_country: 'DE',
        legal_vat_number: 'DE123456789',
      });

      expect(
        await calculate(org.api, { terms, quantity: 2, account_code: account.code, account_country_code: 'US' }),
      ).toEqual(
        quote({
          vat_rate: '0.00',
          vat: '0.00',
          total: '200.00',
          reverse_charge: true,
          vat_reason: 'eu_reverse_charge',
        }),
      );
    });

    it('a German organization charges 19 % at home and 19 % to a French person', async () => {
      const german = await newOrganization(platform(), {
        country: 'DE',
        base_currency: 'EUR',
        time_zone: 'Europe/Berlin',
      });
      const euroTerms = await termsFor(german.api, { price: '49.99', currency: 'EUR' });
      const euro = { currency: 'EUR', unit_price: '49.99', quantity: 3, subtotal: '149.97' };

      // 149.97 × 19 % = 28.4943
      expect(await calculate(german.api, { terms: euroTerms, quantity: 3 })).toEqual(
        quote({ ...euro, vat_rate: '19.00', vat: '28.49', total: '178.46' }),
      );
      expect(await calculate(german.api, { terms: euroTerms, quantity: 3, account_country_code: 'FR' })).toEqual(
        quote({ ...euro, vat_rate: '19.00', vat: '28.49', total: '178.46', vat_reason: 'eu_no_vat_number' }),
      );
    });

    it('Finland: 25.5 %', async () => {
      const finnish = await newOrganization(platform(), {
        country: 'FI',
        base_currency: 'EUR',
        time_zone: 'Europe/Helsinki',
      });
      const euroTerms = await termsFor(finnish.api, { price: '10.00', currency: 'EUR' });

      expect(await calculate(finnish.api, { terms: euroTerms, quantity: 1 })).toEqual(
        quote({
          currency: 'EUR',
          unit_price: '10.00',
          quantity: 1,
          subtotal: '10.00',
          vat_rate: '25.50',
          vat: '2.55',
          total: '12.55',
        }),
      );
    });

    it('an organization outside the EU charges no VAT', async () => {
      const norwegian = await newOrganization(platform(), {
        country: 'NO',
        base_currency: 'NOK',
        time_zone: 'Europe/Oslo',
      });
      const nokTerms = await termsFor(norwegian.api, { currency: 'NOK' });

      expect(await calculate(norwegian.api, { terms: nokTerms, quantity: 2 })).toEqual(
        quote({ currency: 'NOK', vat_rate: '0.00', vat: '0.00', total: '200.00', vat_reason: 'seller_outside_eu' }),
      );
    });

    it('a plan with collect_vat false: 0 for everyone', async () => {
      const untaxed = await termsFor(org.api, {}, { collect_vat: false });
      const noVat = quote({ vat_rate: '0.00', vat: '0.00', total: '200.00', vat_reason: 'not_collected' });

      expect(await calculate(org.api, { terms: untaxed, quantity: 2 })).toEqual(noVat);
      expect(await calculate(org.api, { terms: untaxed, quantity: 2, account_country_code: 'DE' })).toEqual(noVat);
    });
  });

  describe('contract tiers', () => {
    it('a 10 % tier from quantity 5 applies from 5, not at 4', async () => {
      const account = await createAccount(org.api);
      const contract = await createContract(org.api, account.code, terms);
      await createTier(org.api, account.code, contract.uuid, {
        minimum_quantity: 5,
        discount: '10',
        discount_type: 'percentage',
      });

      expect(await calculate(org.api, { terms, quantity: 5, account_code: account.code })).toEqual(
        quote({ quantity: 5, discount: '50.00', subtotal: '450.00', vat: '112.50', total: '562.50' }),
      );
      expect(await calculate(org.api, { terms, quantity: 4, account_code: account.code })).toEqual(
        quote({ quantity: 4, subtotal: '400.00', vat: '100.00', total: '500.00' }),
      );
      // Without the account no contract applies.
      expect(await calculate(org.api, { terms, quantity: 5, account_country_code: 'DK' })).toEqual(
        quote({ quantity: 5, subtotal: '500.00', vat: '125.00', total: '625.00' }),
      );
    });

    it('a fixed discount: an amount off the unit price', async () => {
      const account = await createAccount(org.api);
      const contract = await createContract(org.api, account.code, terms);
      await createTier(org.api, account.code, contract.uuid, {
        minimum_quantity: 1,
        discount: '15.50',
        discount_type: 'fixed',
      });

      // 84.50 × 3 = 253.50; 25 % = 63.375 → 63.38
      expect(await calculate(org.api, { terms, quantity: 3, account_code: account.code })).toEqual(
        quote({ quantity: 3, discount: '46.50', subtotal: '253.50', vat: '63.38', total: '316.88' }),
      );
    });

    it('non-exclusive tiers compound; reverse charge still applies to the discounted subtotal', async () => {
      const account = await createAccount(org.api, uniqueCode(), {
        legal_country: 'SE',
        legal_vat_number: 'SE556677889901',
      });
      const contract = await createContract(org.api, account.code, terms, { exclusive_tiers: false });
      await createTier(org.api, account.code, contract.uuid, {
        minimum_quantity: 1,
        discount: '5',
        discount_type: 'percentage',
      });
      await createTier(org.api, account.code, contract.uuid, {
        minimum_quantity: 2,
        discount: '10',
        discount_type: 'percentage',
      });

      // 100 → 95 → 85.50 per unit; × 2 = 171.00; 29.00 off
      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(
        quote({
          discount: '29.00',
          subtotal: '171.00',
          vat_rate: '0.00',
          vat: '0.00',
          total: '171.00',
          reverse_charge: true,
          vat_reason: 'eu_reverse_charge',
        }),
      );
    });

    it('only a contract running today, on these terms, of this account applies', async () => {
      const account = await createAccount(org.api);
      const other = await createAccount(org.api);
      const otherTerms = await termsFor(org.api);
      const tier = { minimum_quantity: 1, discount: '50', discount_type: 'percentage' };
      const future = await createContract(org.api, account.code, terms, { start_date: '2026-01-16' });
      await createTier(org.api, account.code, future.uuid, tier);
      const ended = await createContract(org.api, account.code, terms, {
        start_date: '2025-01-01',
        end_date: '2026-01-14',
      });
      await createTier(org.api, account.code, ended.uuid, tier);
      const onOtherTerms = await createContract(org.api, account.code, otherTerms);
      await createTier(org.api, account.code, onOtherTerms.uuid, tier);
      const ofOtherAccount = await createContract(org.api, other.code, terms);
      await createTier(org.api, other.code, ofOtherAccount.uuid, tier);

      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(quote({}));

      const today = await createContract(org.api, account.code, terms, {
        start_date: '2026-01-15',
        end_date: '2026-01-15',
      });
      await createTier(org.api, account.code, today.uuid, tier);
      expect(await calculate(org.api, { terms, quantity: 2, account_code: account.code })).toEqual(
        quote({ discount: '100.00', subtotal: '100.00', vat: '25.00', total: '125.00' }),
      );
    });

    it("'today' is the organization's local day", async () => {
      const newYork = await newOrganization(platform(), { time_zone: 'America/New_York' });
      const nyTerms = await termsFor(newYork.api);
      const tier = { minimum_quantity: 1, discount: '10', discount_type: 'percentage' };
      const copenhagenAccount = await createAccount(org.api);
      const nyAccount = await createAccount(newYork.api);
      const copenhagenContract = await createContract(org.api, copenhagenAccount.code, terms, {
        start_date: '2026-01-15',
      });
      await createTier(org.api, copenhagenAccount.code, copenhagenContract.uuid, tier);
      const nyContract = await createContract(newYork.api, nyAccount.code, nyTerms, { start_date: '2026-01-15' });
      await createTier(newYork.api, nyAccount.code, nyContract.uuid, tier);
      const discounted = quote({ discount: '20.00', subtotal: '180.00', vat: '45.00', total: '225.00' });

      // 23:30 UTC on the 14th: already the 15th in Copenhagen, still the 14th in New York.
      platform().clock.set('2026-01-14T23:30:00Z');
      try {
        expect(await calculate(org.api, { terms, quantity: 2, account_code: copenhagenAccount.code })).toEqual(
          discounted,
        );
        expect(await calculate(newYork.api, { terms: nyTerms, quantity: 2, account_code: nyAccount.code })).toEqual(
          quote({}),
        );
      } finally {
        platform().clock.set(NOW);
      }
      expect(await calculate(newYork.api, { terms: nyTerms, quantity: 2, account_code: nyAccount.code })).toEqual(
        discounted,
      );
    });
  });

  describe('amounts', () => {
    it('ISK in whole krónur, with a 10 % tier', async () => {
      const iskTerms = await termsFor(org.api, { price: '1499', currency: 'ISK' });
      const account = await createAccount(org.api);
      const contract = await createContract(org.api, account.code, iskTerms);
      await createTier(org.api, account.code, contract.uuid, {
        minimum_quantity: 1,
        discount: '10',
        discount_type: 'percentage',
      });

      // 1499 × 3 = 4497; 25 % = 1124.25
      expect(await calculate(org.api, { terms: iskTerms, quantity: 3 })).toEqual(
        quote({
          currency: 'ISK',
          unit_price: '1499',
          discount: '0',
          quantity: 3,
          subtotal: '4497',
          vat: '1124',
          total: '5621',
        }),
      );
      // 149.9 off per unit × 3 = 449.7 → 450; 1349.1 × 3 = 4047.3 → 4047; 25 % = 1011.75 → 1012
      expect(await calculate(org.api, { terms: iskTerms, quantity: 3, account_code: account.code })).toEqual(
        quote({
          currency: 'ISK',
          unit_price: '1499',
          discount: '450',
          quantity: 3,
          subtotal: '4047',
          vat: '1012',
          total: '5059',
        }),
      );
    });

    it('a price beyond the minor unit is shown exactly; amounts are rounded once', async () => {
      const fine = await termsFor(org.api, { price: '9.995' });

      // 9.995 × 3 = 29.985 → 29.99; 25 % of 29.99 = 7.4975 → 7.50
      expect(await calculate(org.api, { terms: fine, quantity: 3 })).toEqual(
        quote({ unit_price: '9.995', quantity: 3, subtotal: '29.99', vat: '7.50', total: '37.49' }),
      );
    });

    it('quantity 0 and 2147483647', async () => {
      expect(await calculate(org.api, { terms, quantity: 0 })).toEqual(
        quote({ quantity: 0, subtotal: '0.00', vat: '0.00', total: '0.00' }),
      );
      expect(await calculate(org.api, { terms, quantity: 2147483647 })).toEqual(
        quote({ quantity: 2147483647, subtotal: '214748364700.00', vat: '53687091175.00', total: '268435455875.00' }),
      );
    });

    it('inactive terms are priced too (a preview, not a new subscription)', async () => {
      const inactive = await termsFor(org.api);
      expectStatus(await org.api.patch(planTermsPath(inactive), { active: false }), 200);

      expect(await calculate(org.api, { terms: inactive, quantity: 2 })).toEqual(quote({}));
    });

    it('stores nothing: no audit row, no event', async () => {
      const fresh = await newOrganization(platform());
      const freshTerms = await termsFor(fresh.api);
      const auditBefore = await platform().subscriptionsAuditLog(fresh.organizationId);
      const eventsBefore = (await platform().catalogEvents()).filter((e) => e.organization_id === fresh.organizationId);

      await calculate(fresh.api, { terms: freshTerms, quantity: 2 });

      expect(await platform().subscriptionsAuditLog(fresh.organizationId)).toEqual(auditBefore);
      expect((await platform().catalogEvents()).filter((e) => e.organization_id === fresh.organizationId)).toEqual(
        eventsBefore,
      );
    });
  });

  describe('refusals', () => {
    it('terms and quantity are required', async () => {
      const none = await org.api.post(CALCULATE, {});
      expectStatus(none, 400);
      expect(none.body).toEqual({ terms: [REQUIRED], quantity: [REQUIRED] });

      const noTerms = await org.api.post(CALCULATE, { quantity: 1, account_country_code: 'DK' });
      expectStatus(noTerms, 400);
      expect(noTerms.body).toEqual({ terms: [REQUIRED] });
    });

    it.each([
      [{ terms: 'pro-monthly', quantity: 1 }, { terms: ['Must be a valid UUID.'] }],
      [{ quantity: -1 }, { quantity: ['Ensure this value is greater than or equal to 0.'] }],
      [{ quantity: 2147483648 }, { quantity: ['Ensure this value is less than or equal to 2147483647.'] }],
      [{ quantity: 'two' }, { quantity: ['A valid integer is required.'] }],
      [{ quantity: 1.5 }, { quantity: ['A valid integer is required.'] }],
      [{ quantity: null }, { quantity: ['This field may not be null.'] }],
      [{ account_country_code: 'XX' }, { account_country_code: ['"XX" is not a valid choice.'] }],
      [{ account_country_code: 'dk' }, { account_country_code: ['"dk" is not a valid choice.'] }],
      [{ account_code: '' }, { account_code: ['This field may not be blank.'] }],
    ])('%j → 400 naming the field', async (overrides, errors) => {
      const response = await org.api.post(CALCULATE, { terms, quantity: 2, ...overrides });

      expectStatus(response, 400);
      expect(response.body).toEqual(errors);
    });

    it('unknown terms → 400 on terms', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      const response = await org.api.post(CALCULATE, { terms: unknown, quantity: 1 });

      expectStatus(response, 400);
      expect(response.body).toEqual({ terms: [`Invalid pk "${unknown}" - object does not exist.`] });
    });

    it("another organization's terms → 400 on terms", async () => {
      const other = await newOrganization(platform());
      const theirs = await termsFor(other.api);

      const response = await org.api.post(CALCULATE, { terms: theirs, quantity: 1 });

      expectStatus(response, 400);
      expect(response.body).toEqual({ terms: [`Invalid pk "${theirs}" - object does not exist.`] });
      expect(await calculate(other.api, { terms: theirs, quantity: 1 })).toEqual(
        quote({ quantity: 1, subtotal: '100.00', vat: '25.00', total: '125.00' }),
      );
    });

    it("unknown account_code, or another organization's → 400 on account_code", async () => {
      const other = await newOrganization(platform());
      const theirs = await createAccount(other.api);

      for (const code of ['no-such-account', theirs.code]) {
        const response = await org.api.post(CALCULATE, { terms, quantity: 1, account_code: code });
        expectStatus(response, 400);
        expect(response.body).toEqual({ account_code: [`Object with code=${code} does not exist.`] });
      }
    });

    it('checks the body first, then account_code, then terms', async () => {
      const unknownTerms = '00000000-0000-4000-8000-000000000000';

      const badBody = await org.api.post(CALCULATE, { terms: unknownTerms, quantity: -1, account_code: 'nope' });
      expectStatus(badBody, 400);
      expect(badBody.body).toEqual({ quantity: ['Ensure this value is greater than or equal to 0.'] });

      const badAccount = await org.api.post(CALCULATE, { terms: unknownTerms, quantity: 1, account_code: 'nope' });
      expectStatus(badAccount, 400);
      expect(badAccount.body).toEqual({ account_code: ['Object with code=nope does not exist.'] });
    });

    it('GET is 405 (POST only); without the trailing slash 404', async () => {
      const get = await org.api.get(CALCULATE);
      expectStatus(get, 405);
      expect(get.body).toEqual({ detail: 'Method "GET" not allowed.' });
      expect(get.headers.get('allow')).toBe('POST');

      const slashless = await org.api.post('/api/v1/plans/calculate', { terms, quantity: 1 });
      expectStatus(slashless, 404);
      expect(slashless.body).toEqual({ detail: 'URL must end with a slash: /api/v1/plans/calculate/' });
    });

    it('needs a token', async () => {
      const response = await org.api.raw(CALCULATE, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Client-System': 'contract-tests' },
        body: JSON.stringify({ terms, quantity: 1 }),
      });

      expectStatus(response, 401);
      expect(response.body).toEqual({ detail: 'Invalid token.' });
    });
  });

  it('is in the OpenAPI document with its body and answer', async () => {
    const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; requestBody?: unknown; responses: Json }>>;
    };
    const operation = document.paths[CALCULATE]?.post;

    expect(operation?.operationId).toBe('calculatePlanPrice');
    expect(JSON.stringify(operation?.requestBody)).toContain('account_country_code');
    expect(JSON.stringify(document)).toContain('PlanCalculation');
  });
});

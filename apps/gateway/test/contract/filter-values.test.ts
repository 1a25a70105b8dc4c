/**
 * Filter values that are names of Object.prototype members (`constructor`, `toString`,
 * `__proto__`, `hasOwnProperty`) are values like any other: invalid for a boolean, choice, number,
 * uuid or date filter (400 in django-filter's wording), plain text for a text filter, unknown names
 * for `ordering`. Every boolean filter of every list in the OpenAPI document is tried.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, createAccount, expectStatus, newOrganization, usePlatform } from './helpers.js';

const platform = usePlatform();

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

interface QueryParameter {
  name: string;
  in: string;
  schema?: { type?: string };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: QueryParameter[] }>>;
}

/** Every (list path, boolean filter) pair the gateway documents. */
async function booleanFilters(): Promise<Array<[string, string]>> {
  const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as OpenApiDocument;
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    (methods.get?.parameters ?? [])
      .filter((parameter) => parameter.in === 'query' && parameter.schema?.type === 'boolean')
      .map((parameter): [string, string] => [path, parameter.name]),
  );
}

const choiceMessage = (value: string) => `Select a valid choice. ${value} is not one of the available choices.`;

describe('prototype member names as filter values', () => {
  it('every boolean filter of every list refuses them with 400 naming the filter', async () => {
    const { api } = await newOrganization(platform());
    const filters = await booleanFilters();
    // The lists that have boolean filters today; a new one is tried automatically.
    expect(new Set(filters.map(([path]) => path))).toEqual(
      new Set([
        '/api/v1/accounts/',
        '/api/v1/planterms/',
        '/api/v1/churn-reasons/',
        '/api/v1/subscriptions/',
        '/api/v1/invoices/',
        '/api/v1/paymentcards/',
        '/api/v1/subscriptions/total-mrr/',
        '/api/v1/activities/',
        '/api/v1/activities/account/',
      ]),
    );
    // The document lists each hyphen/underscore twin once; the underscore form answers the same.
    for (const [path, filter] of [...filters, ['/api/v1/churn_reasons/', 'is_active'] as const]) {
      for (const value of PROTOTYPE_NAMES) {
        const response = await api.get(`${path}?${filter}=${value}`);
        expect({ path, filter, status: response.status, body: response.body }).toEqual({
          path,
          filter,
          status: 400,
          body: { [filter]: [choiceMessage(value)] },
        });
      }
    }
  });

  it.each([
    ['type', 'a choice', choiceMessage],
    ['legal_country', 'a country', choiceMessage],
    ['uuid', 'a uuid', () => 'Enter a valid UUID.'],
    ['balance', 'a number', () => 'Enter a number.'],
    ['created_date__gte', 'a date-time', () => 'Enter a valid date/time.'],
  ])('the account filter %s (%s) refuses them', async (filter, _kind, message) => {
    const { api } = await newOrganization(platform());
    for (const value of PROTOTYPE_NAMES) {
      const response = await api.get(`${ACCOUNTS}?${filter}=${value}`);
      expectStatus(response, 400);
      expect(response.body).toEqual({ [filter]: [message(value)] });
    }
  });

  it.each([
    ['invoice_number', 'a whole number', 'Enter a whole number.'],
    ['date__gte', 'a date', 'Enter a valid date.'],
  ])('the invoice filter %s (%s) refuses them', async (filter, _kind, message) => {
    const { api } = await newOrganization(platform());
    for (const value of PROTOTYPE_NAMES) {
      const response = await api.get(`/api/v1/invoices/?${filter}=${value}`);
      expectStatus(response, 400);
      expect(response.body).toEqual({ [filter]: [message] });
    }
  });

  it('a text filter takes them as text: they match the account of that code only', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'constructor');
    await createAccount(api, 'other');
    for (const value of PROTOTYPE_NAMES) {
      const response = await api.get(`${ACCOUNTS}?code=${value}`);
      expectStatus(response, 200);
      expect(response.body.results.map((account: { code: string }) => account.code)).toEqual(
        value === 'constructor' ? ['constructor'] : [],
      );
    }
  });

  it('as ordering terms they are unknown names, dropped for the default order', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'b-first');
    platform().clock.advanceSeconds(1);
    await createAccount(api, 'a-second');
    for (const value of PROTOTYPE_NAMES) {
      const response = await api.get(`${ACCOUNTS}?ordering=${value},-${value}`);
      expectStatus(response, 200);
      expect(response.body.results.map((account: { code: string }) => account.code)).toEqual(['b-first', 'a-second']);
    }
  });

  it('as query parameter names they are unknown parameters, ignored', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'only');
    for (const name of PROTOTYPE_NAMES) {
      const response = await api.get(`${ACCOUNTS}?${name}=x&is_archived=false`);
      expectStatus(response, 200);
      expect(response.body.count).toBe(1);
    }
  });
});

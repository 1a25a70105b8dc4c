/**
 * The typed client against the real platform (every service, Postgres, NATS JetStream, the
 * gateway over HTTP): the README's example runs as the README shows it, the committed OpenAPI
 * document is the one the gateway serves, and answers other than 2xx arrive as BillingApiError.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../../apps/gateway/test/support/platform.js';
import { firstInvoice } from '../examples/first-invoice.js';
import { BillingApiError, createBillingClient, unwrap } from '../src/index.js';

const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');

/** The ```ts block of the README's "TypeScript client" section. */
function readmeExample(readme: string): string | undefined {
  const section = readme.split(/^## /m).find((part) => part.startsWith('TypeScript client'));
  return section?.match(/^```ts\n([\s\S]*?)^```$/m)?.[1];
}

/** The BillingApiError `act` throws, as status and body. */
function failureOf(act: () => unknown): { status: number; body: unknown } {
  try {
    act();
  } catch (error) {
    if (error instanceof BillingApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('expected a BillingApiError, nothing was thrown');
}

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.stop();
});

describe('@billing/client', () => {
  it("the README's example is examples/first-invoice.ts, word for word", async () => {
    expect(readmeExample(await read('../../../README.md'))).toBe(await read('../examples/first-invoice.ts'));
  });

  it('the committed OpenAPI document is the one the gateway serves', async () => {
    const served = await fetch(`${platform.baseUrl}/api/schema/`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(JSON.parse(await read('../src/gen/openapi.json')));
  });

  it('runs the example: account, plan and terms, subscription, and its first invoice to the cent', async () => {
    const { token } = await platform.createOrganization({ rate_limit_per_minute: 10_000 });

    const { account, subscription, invoice } = await firstInvoice(platform.baseUrl, token);

    expect(account).toMatchObject({ code: 'acme', company_name: 'Acme ApS', legal_country: 'DK' });
    expect(subscription).toMatchObject({ quantity: 2, collection_method: 'invoice' });
    expect(invoice).toMatchObject({
      account_code: 'acme',
      currency: 'DKK',
      date: '2026-01-15',
      status: 'open',
      subtotal: '200.00',
      vat: '50.00',
      total: '250.00',
      balance: '250.00',
    });
    expect(invoice.invoiceline_set).toEqual([
      expect.objectContaining({
        description: 'Pro (pro-monthly)',
        sku: 'pro',
        date_from: '2026-01-15',
        date_to: '2026-02-14',
        price: '100',
        quantity: '2',
        subtotal: '200.00',
        vat_rate: '25.00',
        vat: '50.00',
        total: '250.00',
        subscription: subscription.uuid,
      }),
    ]);
  });

  it('sends the Idempotency-Key header: a retried create is one plan', async () => {
    const { token } = await platform.createOrganization({ rate_limit_per_minute: 10_000 });
    const billing = createBillingClient({ baseUrl: `${platform.baseUrl}/`, token, clientSystem: 'client-tests' });
    const request = {
      body: { name: 'Basic', code: 'basic', collect_vat: true, vat_type: 'services' as const },
      params: { header: { 'Idempotency-Key': randomUUID() } },
    };

    const first = await billing.POST('/api/v1/plans/', request);
    const retry = await billing.POST('/api/v1/plans/', request);

    expect(first.response.status).toBe(201);
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
    expect(unwrap(retry).uuid).toBe(unwrap(first).uuid);
    expect(unwrap(await billing.GET('/api/v1/plans/')).count).toBe(1);
  });

  it('turns an answer other than 2xx into a BillingApiError with its status and body', async () => {
    const { token } = await platform.createOrganization({ rate_limit_per_minute: 10_000 });
    const billing = createBillingClient({ baseUrl: platform.baseUrl, token, clientSystem: 'client-tests' });
    const strangers = createBillingClient({ baseUrl: platform.baseUrl, token: 'not-a-token', clientSystem: 'x' });

    const missing = await billing.GET('/api/v1/accounts/{code}/', { params: { path: { code: 'nobody' } } });
    const refused = await strangers.GET('/api/v1/accounts/');

    expect(failureOf(() => unwrap(missing))).toEqual({ status: 404, body: { detail: 'Not found.' } });
    expect(failureOf(() => unwrap(refused))).toEqual({ status: 401, body: { detail: 'Invalid token.' } });
  });
});

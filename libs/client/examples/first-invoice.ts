import { randomUUID } from 'node:crypto';
import { createBillingClient, unwrap } from '@billing/client';

/** A new customer on a monthly plan, and the first invoice of its subscription. */
export async function firstInvoice(baseUrl: string, token: string) {
  const billing = createBillingClient({ baseUrl, token, clientSystem: 'crm' });

  const account = unwrap(
    await billing.POST('/api/v1/accounts/', {
      body: {
        code: 'acme',
        company_name: 'Acme ApS',
        legal_address: 'Vesterbrogade 1',
        legal_zipcode: '1620',
        legal_city: 'København V',
        legal_country: 'DK',
      },
      // Safe to retry with the same key: the account is created once.
      params: { header: { 'Idempotency-Key': randomUUID() } },
    }),
  );
  const plan = unwrap(
    await billing.POST('/api/v1/plans/', {
      body: { name: 'Pro', code: 'pro', collect_vat: true, vat_type: 'services' },
    }),
  );
  const terms = unwrap(
    await billing.POST('/api/v1/planterms/', {
      body: {
        plan: plan.uuid,
        code: 'pro-monthly',
        interval_type: 'month',
        interval_count: 1,
        price: '100.00',
        currency: 'DKK',
        backwards_charging: false,
      },
    }),
  );
  const subscription = unwrap(
    await billing.POST('/api/v1/subscriptions/', {
      body: { account: account.code, terms: terms.uuid, quantity: 2, collection_method: 'invoice' },
    }),
  );

  // Invoicing issues the first invoice moments after the subscription starts.
  for (let attempt = 0; attempt < 100; attempt++) {
    const invoices = unwrap(
      await billing.GET('/api/v1/invoices/', { params: { query: { subscription_uuid: subscription.uuid } } }),
    );
    const [listed] = invoices.results;
    if (listed?.uuid) {
      // The detail view: amounts as decimal strings (the list shows them as numbers), lines included.
      const invoice = unwrap(
        await billing.GET('/api/v1/invoices/{uuid}/', { params: { path: { uuid: listed.uuid } } }),
      );
      return { account, subscription, invoice };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No invoice for subscription ${subscription.uuid} yet`);
}

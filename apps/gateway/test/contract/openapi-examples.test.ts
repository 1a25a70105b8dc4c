/**
 * The request examples of the OpenAPI document (what the console's "Try it out" starts from),
 * sent as the document shows them to the path it lists: every one is accepted with the operation's
 * documented success status (201 or 200), never 400. Objects an example refers to by its example
 * uuid are made first, by earlier examples where one makes them, and the example uuid replaced by
 * theirs, as a user would.
 */
import { beforeAll, expect, it } from 'vitest';
import { EXAMPLE_IDS } from '../../src/openapi/request-examples.js';
import type { ApiClient } from '../support/platform.js';
import { expectStatus, newOrganization, usePlatform } from './helpers.js';
import { invoiceFixture, invoicePath, subscribeAndInvoice, waitForInvoices } from './invoices-helpers.js';
import { subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();

interface DocumentedBody {
  method: 'post' | 'put' | 'patch';
  path: string;
  status: number;
  example: unknown;
}

/** Every documented operation with a request body, by operationId. */
let documented: Map<string, DocumentedBody>;

beforeAll(async () => {
  const response = await fetch(`${platform().baseUrl}/api/schema/`);
  const document = (await response.json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          operationId: string;
          requestBody?: { content: Record<string, { example?: unknown }> };
          responses: Record<string, unknown>;
        }
      >
    >;
  };
  documented = new Map(
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.requestBody)
        .map(([method, operation]) => [
          operation.operationId,
          {
            method: method as DocumentedBody['method'],
            path,
            status: Number(Object.keys(operation.responses).find((status) => status.startsWith('2'))),
            example: operation.requestBody!.content['application/json']?.example,
          },
        ]),
    ),
  );
});

/** Replaces each example uuid in `value` by the uuid of the object made for it. */
function withIds(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => withIds(item, ids));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withIds(item, ids)]));
  }
  return value;
}

it('accepts every request example at its documented path with the documented status', async () => {
  const { api } = await newOrganization(platform(), { features: ['kickback', 'self_service'] });
  const ids = new Map<string, string>();
  const sent: string[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  const send = async (client: ApiClient, operationId: string, params: Record<string, string> = {}): Promise<any> => {
    const operation = documented.get(operationId);
    if (!operation) throw new Error(`no documented operation ${operationId} with a request body`);
    expect(operation.example, `${operationId} shows an example`).toBeDefined();
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (params[name] === undefined) throw new Error(`${operationId}: no value for {${name}}`);
      return encodeURIComponent(params[name]);
    });
    const response = await client[operation.method](path, withIds(operation.example, ids));
    expect({ operationId, status: response.status }, response.text).toEqual({ operationId, status: operation.status });
    sent.push(operationId);
    return response.body;
  };
  const acme = { code: 'acme' };

  const account = await send(api, 'createAccount');
  ids.set(EXAMPLE_IDS.account, account.uuid);
  await send(api, 'replaceAccount', acme);
  await send(api, 'updateAccount', acme);
  await send(api, 'setPaymentGatewayAccounts', acme);

  await send(api, 'createPaymentCard');
  const recipient = await send(api, 'createRecipient');
  // A link for the recipient just made (ada@acme.example), before the replace example renames it.
  await send(api, 'initiateSelfService');
  await send(api, 'replaceRecipient', { uuid: recipient.uuid });
  await send(api, 'updateRecipient', { uuid: recipient.uuid });

  const plan = await send(api, 'createPlan');
  ids.set(EXAMPLE_IDS.plan, plan.uuid);
  await send(api, 'replacePlan', { uuid: plan.uuid });
  await send(api, 'updatePlan', { uuid: plan.uuid });
  const terms = await send(api, 'createPlanTerms');
  ids.set(EXAMPLE_IDS.planTerms, terms.uuid);
  await send(api, 'updatePlanTerms', { uuid: terms.uuid });
  await send(api, 'calculatePlanPrice');

  const reason = await send(api, 'createChurnReason');
  await send(api, 'replaceChurnReason', { uuid: reason.uuid });
  await send(api, 'updateChurnReason', { uuid: reason.uuid });

  // Before the contract: its commitment (the example's 12 months) binds the account's subscriptions
  // on those terms, and the cancel example would be refused.
  const subscription = await send(api, 'createSubscription');
  ids.set(EXAMPLE_IDS.subscription, subscription.uuid);
  // Activities are analytics' once it has the subscription's events.
  await platform().analyticsCaughtUp();
  const activity = await send(api, 'createActivity');
  await send(api, 'replaceActivity', { uuid: activity.uuid });
  await send(api, 'updateActivity', { uuid: activity.uuid });
  const accountActivity = await send(api, 'createAccountActivity');
  await send(api, 'replaceAccountActivity', { uuid: accountActivity.uuid });
  await send(api, 'updateAccountActivity', { uuid: accountActivity.uuid });
  await send(api, 'replaceSubscription', { uuid: subscription.uuid });
  await send(api, 'updateSubscription', { uuid: subscription.uuid });
  await send(api, 'cancelSubscription', { uuid: subscription.uuid });
  await send(api, 'subscribeAccount', acme);

  const contract = await send(api, 'createContract', acme);
  await send(api, 'replaceContract', { ...acme, uuid: contract.uuid });
  await send(api, 'updateContract', { ...acme, uuid: contract.uuid });
  const tier = await send(api, 'createContractTier', { ...acme, uuid: contract.uuid });
  await send(api, 'replaceContractTier', { ...acme, uuid: contract.uuid, id: tier.id });
  await send(api, 'updateContractTier', { ...acme, uuid: contract.uuid, id: tier.id });

  const line = await send(api, 'createDraftInvoiceLine');
  await send(api, 'replaceDraftInvoiceLine', { uuid: line.uuid });
  await send(api, 'updateDraftInvoiceLine', { uuid: line.uuid });
  await send(api, 'generateAccountInvoice', acme);

  // Invoices come from subscriptions: an open one to act on, a credit note and an invoice it credits.
  const fixture = await invoiceFixture(api);
  const { invoice } = await subscribeAndInvoice(api, fixture, { quantity: 2 });
  await send(api, 'updateInvoiceKickbackStatus', { uuid: invoice.uuid });
  await send(api, 'changeInvoiceCollectionMethod', { uuid: invoice.uuid });
  await send(api, 'registerInvoicePayment', { uuid: invoice.uuid });
  const credited = await subscribeAndInvoice(api, fixture, { quantity: 2 });
  expectStatus(
    await api.post(`${subscriptionPath(credited.subscription.uuid)}cancel/`, { cancellation_type: 'full_refund' }),
    200,
  );
  const [note] = await waitForInvoices(api, `subscription_uuid=${credited.subscription.uuid}&total__lt=0`, 1);
  const { invoice: target } = await subscribeAndInvoice(api, fixture, { quantity: 2 });
  ids.set(EXAMPLE_IDS.invoice, target.uuid);
  await send(api, 'applyCreditNote', { uuid: note!.uuid });
  expect((await api.get(invoicePath(target.uuid))).body.balance).toBe('125.00');
  await send(api, 'exportInvoices');
  await send(api, 'exportInvoiceVat');
  await send(api, 'exportSubscriptions');
  await send(api, 'exportAccounts');
  await send(api, 'exportActivities');
  await send(api, 'exportAccountActivities');

  const webhook = await send(api, 'createWebhook');
  await send(api, 'replaceWebhook', { uuid: webhook.uuid });
  await send(api, 'updateWebhook', { uuid: webhook.uuid });

  // The test clock belongs to test-mode organizations.
  const sandbox = await newOrganization(platform(), { test_clock_time: '2026-01-15T09:00:00Z' });
  await send(sandbox.api, 'advanceTestClock');

  // Not one example left out.
  expect(sent.sort()).toEqual([...documented.keys()].sort());
});

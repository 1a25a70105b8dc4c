/**
 * An event makes one delivery per webhook that takes it, however often and by whichever path it
 * arrives: handed over by its producer (ReadModelService.ApplyEvents), twice, and from the stream
 * (the durable consumer's handler under the same inbox name).
 */
import { openPool } from '@billing/db';
import { encodeEnvelope, handleEventOnce } from '@billing/events';
import { createGrpcClient } from '@billing/grpc';
import type { RequestContext } from '@billing/observability';
import { accountsV1, webhooksV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { webhookConsumerName, webhookEventHandler } from '../src/events/webhook-consumers.js';
import { createAccountsModule } from '../src/service.js';
import { useAccountsService } from './support/accounts-service.js';
import { invoiceIssued } from './support/invoice-events.js';
import { testWebhooksDeps } from './support/webhooks-deps.js';

// Nothing listens on port 9: attempts fail, which does not matter here.
const ENDPOINT = 'http://127.0.0.1:9/hook';

const accounts = useAccountsService(
  webhooksV1.WebhookServiceClient,
  createAccountsModule({ webhooks: { pollIntervalMs: 60_000 } }),
);
const webhooks = accounts.client;

async function createWebhook(context: RequestContext, events: string[]): Promise<string> {
  const reply = await webhooks.call(
    'createWebhook',
    { webhook: { endpoint: ENDPOINT, events }, present_fields: ['endpoint', 'events'] },
    { context },
  );
  return reply.webhook!.uuid;
}

const deliveriesOf = async (context: RequestContext, webhook: string) =>
  (
    await webhooks.call(
      'listWebhookDeliveries',
      { webhook, page: { page: 1, page_size: 50, ordering: '' } },
      { context },
    )
  ).deliveries;

describe('deliveries are made once per event and webhook', () => {
  it('whether the event is handed over twice or also arrives from the stream', async () => {
    const { context, organizationId } = await accounts.organization();
    const first = await createWebhook(context, ['new_invoice']);
    const second = await createWebhook(context, ['new_invoice', 'paid_invoice']);
    const other = await createWebhook(context, ['account.created']);
    const envelope = invoiceIssued(organizationId);

    const readModel = createGrpcClient(accountsV1.ReadModelServiceClient, accounts.service().address);
    try {
      for (let round = 0; round < 2; round++) {
        await readModel.call('applyEvents', { envelopes: [Buffer.from(encodeEnvelope(envelope))] }, { context });
      }
    } finally {
      readModel.close();
    }
    const service = accounts.service();
    const schema = service.orm.config.get('schema') as string;
    const database = accounts.database();
    const pool = openPool({ clientUrl: database.databaseUrl, schema: database.schema, max: 1 });
    const handler = webhookEventHandler(testWebhooksDeps({ orm: service.orm, pool, clock: accounts.clock }));
    try {
      // The stream's copy: the inbox knows it already.
      const consumer = webhookConsumerName(schema, { eventType: 'invoice.issued' });
      expect(await handleEventOnce({ orm: service.orm, consumer }, envelope, handler)).toBe(false);
      // Even past the inbox (another inbox name), the (webhook, event) key makes no second delivery.
      expect(await handleEventOnce({ orm: service.orm, consumer: `${consumer}-other` }, envelope, handler)).toBe(true);
    } finally {
      await pool.end();
    }

    for (const webhook of [first, second]) {
      const deliveries = await deliveriesOf(context, webhook);
      expect(deliveries.map((delivery) => [delivery.event, delivery.event_id])).toEqual([
        ['new_invoice', envelope.event_id],
      ]);
    }
    expect(await deliveriesOf(context, other)).toEqual([]);
  });
});

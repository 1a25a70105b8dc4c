/**
 * Webhook endpoints on loopback or private networks (gaps.md §12): accepted by default, refused
 * (400 on `endpoint`) when the operator forbids them, and then never connected to at delivery.
 */
import { webhooksV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { PRIVATE_ENDPOINT_MESSAGE } from '../src/domain/webhooks/endpoint-address.js';
import { createAccountsModule } from '../src/service.js';
import { postWebhook } from '../src/webhook-sender/post-webhook.js';
import { useAccountsService } from './support/accounts-service.js';

const allowing = useAccountsService(webhooksV1.WebhookServiceClient);
const forbidding = useAccountsService(
  webhooksV1.WebhookServiceClient,
  createAccountsModule({ webhooks: { forbidPrivateEndpoints: true } }),
);

const PRIVATE_ENDPOINTS = [
  'http://127.0.0.1:8080/hook',
  'http://localhost/hook',
  'https://10.1.2.3/hook',
  'http://192.168.0.10/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1]:9000/hook',
  'http://[fd00::5]/hook',
];

const create = (service: typeof allowing, context: Parameters<typeof allowing.client.call>[2], endpoint: string) =>
  service.client.call('createWebhook', { webhook: { endpoint, events: [] }, present_fields: ['endpoint'] }, context);

describe('private webhook endpoints', () => {
  it('are accepted unless the operator forbids them', async () => {
    const { context } = await allowing.organization();
    for (const endpoint of PRIVATE_ENDPOINTS) {
      const reply = await create(allowing, { context }, endpoint);
      expect(reply.webhook!.endpoint).toBe(endpoint);
    }
  });

  it('are refused on create and update when forbidden; public ones are kept', async () => {
    const { context } = await forbidding.organization();
    for (const endpoint of PRIVATE_ENDPOINTS) {
      await expect(create(forbidding, { context }, endpoint)).rejects.toMatchObject({
        reason: 'VALIDATION_FAILED',
        fieldViolations: [{ field: 'endpoint', description: PRIVATE_ENDPOINT_MESSAGE }],
      });
    }
    const { webhook } = await create(forbidding, { context }, 'https://93.184.216.34/hook');
    await expect(
      forbidding.client.call(
        'updateWebhook',
        {
          uuid: webhook!.uuid,
          replace: false,
          webhook: { endpoint: 'http://127.0.0.1/x', events: [] },
          present_fields: ['endpoint'],
        },
        { context },
      ),
    ).rejects.toMatchObject({ fieldViolations: [{ field: 'endpoint', description: PRIVATE_ENDPOINT_MESSAGE }] });
    expect((await forbidding.client.call('getWebhook', { uuid: webhook!.uuid }, { context })).webhook!.endpoint).toBe(
      'https://93.184.216.34/hook',
    );
  });

  it('are not connected to at delivery when forbidden', async () => {
    const post = { body: '{}', headers: {}, basicAuth: null, timeoutMs: 1_000 };
    for (const endpoint of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]:9/hook']) {
      expect(await postWebhook({ ...post, endpoint, forbidPrivate: true })).toEqual({
        responseStatus: null,
        error: 'the endpoint resolves to a loopback or private network address',
      });
    }
    // Allowed, the same endpoint is tried (and nothing listens on port 9).
    expect(await postWebhook({ ...post, endpoint: 'http://127.0.0.1:9/hook', forbidPrivate: false })).toEqual({
      responseStatus: null,
      error: expect.stringContaining('ECONNREFUSED'),
    });
  });
});

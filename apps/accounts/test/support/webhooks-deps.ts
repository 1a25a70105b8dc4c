import type { WebhooksDeps } from '../../src/use-cases/webhooks/webhooks-deps.js';

/**
 * What the webhook paths need in tests that call them without a service: no private-endpoint
 * check, a poll that never comes during a test, and no subscription rendering or renewal mail
 * (a call to either fails the test).
 */
export function testWebhooksDeps(deps: Pick<WebhooksDeps, 'orm' | 'pool' | 'clock' | 'enabledWebhooks'>): WebhooksDeps {
  return {
    ...deps,
    webhooks: {
      forbidPrivateEndpoints: false,
      pollIntervalMs: 60_000,
      attemptTimeoutMs: 1_000,
      maxConcurrency: 1,
      endpointConcurrency: 1,
      publicApiUrl: 'https://billing.example.com',
    },
    wakeDispatcher: () => {},
    renderSubscription: () => Promise.reject(new Error('no subscription is rendered here')),
    mailRenewalNotice: () => Promise.reject(new Error('no renewal is noticed here')),
  };
}

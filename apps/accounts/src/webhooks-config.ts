import { loadConfig } from '@billing/config';
import { DELIVERY_ATTEMPT_TIMEOUT_MS } from '@billing/domain-kit';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((value) => value === 'true' || value === '1');

const schema = z.object({
  /**
   * Refuse webhook endpoints on loopback or private networks, at registration and at every
   * delivery (the address actually connected to is checked): the Helm chart turns it on.
   */
  WEBHOOKS_FORBID_PRIVATE_ENDPOINTS: flag,
  /** How often the dispatcher looks for due deliveries besides being woken by new ones. */
  WEBHOOKS_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(1_000),
  /** How long a receiver has to answer (gaps.md §12: 10 s). */
  WEBHOOKS_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().positive().default(DELIVERY_ATTEMPT_TIMEOUT_MS),
  /** Endpoints sent to at once by one replica (each with up to WEBHOOKS_ENDPOINT_CONCURRENCY deliveries). */
  WEBHOOKS_MAX_CONCURRENCY: z.coerce.number().int().positive().default(50),
  /**
   * Deliveries in flight to one endpoint at once (gaps.md §12 promises no order between
   * deliveries; docs/api.md "Webhooks"): 1 sends an endpoint's deliveries one after the other.
   */
  WEBHOOKS_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
  /** The gateway's public URL: the absolute links in webhook data (an invoice's invoice_api_url). */
  PUBLIC_API_URL: z.url().default('http://127.0.0.1:8000'),
});

export interface WebhooksConfig {
  forbidPrivateEndpoints: boolean;
  pollIntervalMs: number;
  attemptTimeoutMs: number;
  maxConcurrency: number;
  endpointConcurrency: number;
  publicApiUrl: string;
}

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  const config = loadConfig('accounts', schema, env);
  return {
    forbidPrivateEndpoints: config.WEBHOOKS_FORBID_PRIVATE_ENDPOINTS,
    pollIntervalMs: config.WEBHOOKS_POLL_INTERVAL_MS,
    attemptTimeoutMs: config.WEBHOOKS_ATTEMPT_TIMEOUT_MS,
    maxConcurrency: config.WEBHOOKS_MAX_CONCURRENCY,
    endpointConcurrency: config.WEBHOOKS_ENDPOINT_CONCURRENCY,
    publicApiUrl: config.PUBLIC_API_URL,
  };
}

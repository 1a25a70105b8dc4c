/** Shared vocabulary of the webhook contract tests (gaps.md §12). */
import type { ApiClient } from '../support/platform.js';
import { expectStatus, type Json } from './helpers.js';

export const WEBHOOKS = '/api/v1/webhooks/';
export const webhookPath = (uuid: string) => `${WEBHOOKS}${uuid}/`;
export const deliveriesPath = (uuid: string) => `${webhookPath(uuid)}deliveries/`;

/** Registers a webhook and fails the test unless the API answers 201; returns it with its secret. */
export async function createWebhook(api: ApiClient, body: Json): Promise<Json & { uuid: string; secret: string }> {
  const response = await api.post(WEBHOOKS, body);
  expectStatus(response, 201);
  return response.body;
}

/** The first page of a webhook's delivery log. */
export async function deliveriesOf(api: ApiClient, uuid: string): Promise<Json[]> {
  const response = await api.get(deliveriesPath(uuid));
  expectStatus(response, 200);
  return response.body.results;
}

import { textLength, type WritableShape } from '@billing/domain-kit';
import type { FieldViolation } from '@billing/errors';
import { DEFAULT_WEBHOOK_EVENTS, isWebhookEventName, type WebhookEventName } from './event-names.js';

/** DRF's URLField length; the Basic auth parts as Django's username. */
export const ENDPOINT_MAX = 200;
export const BASIC_AUTH_MAX = 150;

export interface WebhookFields {
  endpoint: string;
  basic_auth_username: string;
  /** Write-only: never shown, sent as Basic auth with the username. */
  basic_auth_password: string;
  enabled: boolean;
  events: string[];
}

/** What a webhook is, as use cases return it (without its password and secret). */
export interface WebhookView {
  uuid: string;
  endpoint: string;
  basic_auth_username: string;
  enabled: boolean;
  events: WebhookEventName[];
  created_date: Date;
  last_modified_date: Date;
}

/** A new webhook is enabled and receives every event that is on by default. */
export const WEBHOOK_SHAPE: WritableShape<WebhookFields> = {
  required: ['endpoint'],
  defaults: {
    basic_auth_username: '',
    basic_auth_password: '',
    enabled: true,
    events: [...DEFAULT_WEBHOOK_EVENTS],
  },
};

const lengthViolation = (field: string, max: number): FieldViolation => ({
  field,
  description: `Ensure this field has no more than ${max} characters.`,
});

/** An absolute http(s) URL, as DRF's URLField accepts it. */
export function endpointViolation(endpoint: string): string | null {
  if (endpoint === '') return 'This field may not be blank.';
  if (textLength(endpoint) > ENDPOINT_MAX) return `Ensure this field has no more than ${ENDPOINT_MAX} characters.`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'Enter a valid URL.';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return 'Enter a valid URL.';
  return null;
}

/**
 * The write's rules, checked where they live (the gateway's schema checks the types): a valid
 * endpoint, lengths, and only public event names (duplicates kept once, in the order sent).
 */
export function normaliseWebhook(fields: WebhookFields): { fields: WebhookFields; violations: FieldViolation[] } {
  const endpoint = fields.endpoint.trim();
  const violations: FieldViolation[] = [];
  const endpointProblem = endpointViolation(endpoint);
  if (endpointProblem) violations.push({ field: 'endpoint', description: endpointProblem });
  if (textLength(fields.basic_auth_username) > BASIC_AUTH_MAX) {
    violations.push(lengthViolation('basic_auth_username', BASIC_AUTH_MAX));
  }
  if (textLength(fields.basic_auth_password) > BASIC_AUTH_MAX) {
    violations.push(lengthViolation('basic_auth_password', BASIC_AUTH_MAX));
  }
  for (const name of fields.events) {
    if (!isWebhookEventName(name))
      violations.push({ field: 'events', description: `"${name}" is not a valid choice.` });
  }
  return { fields: { ...fields, endpoint, events: [...new Set(fields.events)] }, violations };
}

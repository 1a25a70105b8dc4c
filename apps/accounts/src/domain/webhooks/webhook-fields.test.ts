import { describe, expect, it } from 'vitest';
import { normaliseWebhook, type WebhookFields } from './webhook-fields.js';

const fields = (overrides: Partial<WebhookFields> = {}): WebhookFields => ({
  endpoint: 'https://example.com/hooks',
  basic_auth_username: '',
  basic_auth_password: '',
  enabled: true,
  events: ['new_invoice'],
  ...overrides,
});

describe('normaliseWebhook', () => {
  it('accepts http and https endpoints, trimmed, and keeps each event once in the order sent', () => {
    const result = normaliseWebhook(
      fields({ endpoint: ' http://127.0.0.1:8080/x ', events: ['paid_invoice', 'new_invoice', 'paid_invoice'] }),
    );
    expect(result).toEqual({
      fields: fields({ endpoint: 'http://127.0.0.1:8080/x', events: ['paid_invoice', 'new_invoice'] }),
      violations: [],
    });
  });

  it.each([
    ['', 'This field may not be blank.'],
    ['not a url', 'Enter a valid URL.'],
    ['ftp://example.com/x', 'Enter a valid URL.'],
    ['mailto:ops@example.com', 'Enter a valid URL.'],
    [`https://example.com/${'a'.repeat(181)}`, 'Ensure this field has no more than 200 characters.'],
  ])('refuses the endpoint %j', (endpoint, description) => {
    expect(normaliseWebhook(fields({ endpoint })).violations).toEqual([{ field: 'endpoint', description }]);
  });

  it('names every unknown event and over-long Basic auth parts', () => {
    const result = normaliseWebhook(
      fields({ events: ['new_invoice', 'invoice.issued', 'nope'], basic_auth_username: 'u'.repeat(151) }),
    );
    expect(result.violations).toEqual([
      { field: 'basic_auth_username', description: 'Ensure this field has no more than 150 characters.' },
      { field: 'events', description: '"invoice.issued" is not a valid choice.' },
      { field: 'events', description: '"nope" is not a valid choice.' },
    ]);
  });
});

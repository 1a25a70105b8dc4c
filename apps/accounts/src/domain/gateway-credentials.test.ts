import { describe, expect, it } from 'vitest';
import { gatewayCredentialViolations } from './gateway-credentials.js';

describe('gateway credentials', () => {
  it('takes exactly a secret key and a webhook secret for cardgw_a and cardgw_a_new', () => {
    for (const gateway of ['cardgw_a', 'cardgw_a_new']) {
      expect(gatewayCredentialViolations(gateway, { secret_key: 'sk_test_1', webhook_secret: 'whsec_1' })).toEqual([]);
      expect(gatewayCredentialViolations(gateway, { secret_key: 'sk_test_1', colour: 'red' })).toEqual([
        { field: 'credential', description: `${gateway} needs webhook_secret=<value>.` },
        { field: 'credential', description: `${gateway} takes secret_key and webhook_secret, not colour.` },
      ]);
    }
  });

  it('refuses noop (it needs none) and unknown gateways', () => {
    expect(gatewayCredentialViolations('noop', {})).toEqual([
      { field: 'gateway', description: 'The noop gateway needs no credentials.' },
    ]);
    expect(gatewayCredentialViolations('paypal', { a: 'b' })[0]?.field).toBe('gateway');
  });

  it('keeps what is given for the gateways not available yet, but something must be given', () => {
    expect(gatewayCredentialViolations('cardgw_b', { api_key: 'k' })).toEqual([]);
    expect(gatewayCredentialViolations('cardgw_c', {})).toEqual([
      { field: 'credential', description: 'Give at least one --credential name=value.' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { registrationLinkViolations } from './registration-link.js';

const REQUIRED = 'This field is required.';

describe('card registration link rules', () => {
  it('needs a redirect URL for every gateway but cardgw_c_easy', () => {
    for (const gateway of ['noop', 'cardgw_a', 'cardgw_a_new', 'cardgw_c']) {
      expect(registrationLinkViolations({ gateway, currency: null, redirectUrl: null })).toEqual([
        { field: 'redirect_url', description: REQUIRED },
      ]);
      expect(registrationLinkViolations({ gateway, currency: null, redirectUrl: 'https://shop.example/back' })).toEqual(
        [],
      );
    }
  });

  it('needs a currency for cardgw_b and cardgw_c_easy', () => {
    expect(registrationLinkViolations({ gateway: 'cardgw_b', currency: null, redirectUrl: null })).toEqual([
      { field: 'currency', description: REQUIRED },
      { field: 'redirect_url', description: REQUIRED },
    ]);
    expect(registrationLinkViolations({ gateway: 'cardgw_c_easy', currency: '', redirectUrl: null })).toEqual([
      { field: 'currency', description: REQUIRED },
    ]);
    expect(registrationLinkViolations({ gateway: 'cardgw_c_easy', currency: 'DKK', redirectUrl: null })).toEqual([]);
  });

  it('takes only the listed currencies and absolute http(s) URLs', () => {
    expect(registrationLinkViolations({ gateway: 'noop', currency: 'GBP', redirectUrl: 'ftp://x' })).toEqual([
      { field: 'currency', description: '"GBP" is not a valid choice.' },
      { field: 'redirect_url', description: 'Enter a valid URL.' },
    ]);
  });
});

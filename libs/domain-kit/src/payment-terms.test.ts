import { describe, expect, it } from 'vitest';
import { effectivePaymentTerms, takesOrganizationPaymentTerms } from './payment-terms.js';

describe('effectivePaymentTerms', () => {
  it("is the subscription's, else the account's, else the organization's; 0 is set, not unset", () => {
    expect(effectivePaymentTerms(7, 30, 14)).toBe(7);
    expect(effectivePaymentTerms(null, 30, 14)).toBe(30);
    expect(effectivePaymentTerms(undefined, undefined, 14)).toBe(14);
    expect(effectivePaymentTerms(0, 30, 14)).toBe(0);
    expect(effectivePaymentTerms(null, 0, 14)).toBe(0);
    expect(effectivePaymentTerms(null, null, null)).toBeNull();
  });
});

describe('takesOrganizationPaymentTerms', () => {
  it('only when neither the subscription nor its account sets them', () => {
    expect(takesOrganizationPaymentTerms(null, undefined)).toBe(true);
    expect(takesOrganizationPaymentTerms(undefined, 0)).toBe(false);
    expect(takesOrganizationPaymentTerms(5, null)).toBe(false);
  });
});

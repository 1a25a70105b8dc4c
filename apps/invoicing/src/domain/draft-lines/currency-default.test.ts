import { applyWrite, type Write } from '@billing/domain-kit';
import { describe, expect, it } from 'vitest';
import { takesBaseCurrency, withBaseCurrency } from './currency-default.js';
import { DRAFT_LINE_SHAPE, type DraftLineFields } from './fields.js';

const ACCOUNT = '7d2b2c8e-4f5a-4b8c-9d1e-2f3a4b5c6d7e';

const write = (values: Write<DraftLineFields>['values']): Write<DraftLineFields> => ({
  values,
  present: new Set(Object.keys(values)),
});

const required = { account: ACCOUNT, description: 'Setup', vat_type: 'services' };

describe('takesBaseCurrency', () => {
  it('is true for a create or PUT that leaves currency out, false for a PATCH or when currency is sent', () => {
    expect(takesBaseCurrency(write(required), 'create')).toBe(true);
    expect(takesBaseCurrency(write(required), 'replace')).toBe(true);
    expect(takesBaseCurrency(write({ price: '5' }), 'patch')).toBe(false);
    expect(takesBaseCurrency(write({ ...required, currency: 'SEK' }), 'create')).toBe(false);
    expect(takesBaseCurrency(write({ ...required, currency: 'SEK' }), 'replace')).toBe(false);
    // Sent as null is not left out: the shape refuses it.
    expect(takesBaseCurrency(write({ ...required, currency: null }), 'create')).toBe(false);
  });
});

describe('withBaseCurrency', () => {
  it('fills in the base currency on create and PUT, as if the client had sent it', () => {
    for (const mode of ['create', 'replace'] as const) {
      const completed = withBaseCurrency(write(required), mode, 'EUR');
      expect(completed.values).toEqual({ ...required, currency: 'EUR' });
      expect([...completed.present]).toEqual(['account', 'description', 'vat_type', 'currency']);
      expect(applyWrite(DRAFT_LINE_SHAPE, null, completed, mode)).toMatchObject({
        violations: [],
        fields: { currency: 'EUR' },
      });
    }
  });

  it('keeps a currency that was sent, also null, and leaves a PATCH without currency alone', () => {
    const sent = write({ ...required, currency: 'SEK' });
    expect(withBaseCurrency(sent, 'create', 'EUR')).toBe(sent);
    const nulled = write({ ...required, currency: null });
    expect(withBaseCurrency(nulled, 'replace', 'EUR')).toBe(nulled);
    expect(applyWrite(DRAFT_LINE_SHAPE, null, nulled, 'replace').violations).toEqual([
      { field: 'currency', description: 'This field may not be null.' },
    ]);
    const patch = write({ price: '5' });
    expect(withBaseCurrency(patch, 'patch', 'EUR')).toBe(patch);
  });

  it('does not change the write it was given', () => {
    const original = write(required);
    withBaseCurrency(original, 'create', 'EUR');
    expect(original).toEqual(write(required));
  });
});

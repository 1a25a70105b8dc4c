import { applyWrite, type Write } from '@billing/domain-kit';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DEFAULTS,
  ACCOUNT_SHAPE,
  type AccountFields,
  displayName,
  effectiveType,
  euVatStatus,
} from './account.js';

const required = {
  code: 'acme',
  legal_address: 'Main St 1',
  legal_zipcode: '8000',
  legal_city: 'Aarhus',
  legal_country: 'DK',
};
const write = (values: Write<AccountFields>['values']): Write<AccountFields> => ({
  values,
  present: new Set(Object.keys(values)),
});

describe('account rules', () => {
  it('derives the display name from company, person or code', () => {
    const names = { code: 'c-1', company_name: null, first_name: null, middle_name: null, last_name: null };
    expect(displayName({ ...names, company_name: 'Acme ApS' })).toBe('Acme ApS');
    expect(displayName({ ...names, first_name: 'Ada', middle_name: 'B.', last_name: 'Lovelace' })).toBe(
      'Ada B. Lovelace',
    );
    expect(displayName(names)).toBe('c-1');
  });

  it('infers the type and the EU VAT status', () => {
    expect(effectiveType({ type: null, company_name: 'Acme' })).toBe('company');
    expect(effectiveType({ type: null, company_name: null })).toBe('person');
    expect(effectiveType({ type: 'person', company_name: 'Acme' })).toBe('person');
    expect(euVatStatus({ legal_country: 'DE', legal_vat_number: 'DE123456789' })).toBe('unverified');
    expect(euVatStatus({ legal_country: 'US', legal_vat_number: '123' })).toBe('not_applicable');
    expect(euVatStatus({ legal_country: 'DK', legal_vat_number: '' })).toBe('not_applicable');
  });

  it('creates from defaults and requires the required fields', () => {
    const created = applyWrite(ACCOUNT_SHAPE, null, write({ ...required, company_name: 'Acme' }), 'create');
    expect(created.fields).toEqual({ ...ACCOUNT_DEFAULTS, ...required, company_name: 'Acme' });
    const missing = applyWrite(ACCOUNT_SHAPE, null, write({ code: 'x' }), 'create');
    expect(missing.violations.map((v) => v.field)).toEqual([
      'legal_address',
      'legal_zipcode',
      'legal_city',
      'legal_country',
    ]);
  });

  it('patches only what was sent, PUT needs the required fields, and null is refused where not nullable', () => {
    const current = { ...ACCOUNT_DEFAULTS, ...required, company_name: 'Acme', invoice_note: 'note' } as AccountFields;
    const patched = applyWrite(ACCOUNT_SHAPE, current, write({ invoice_note: null, language: 'da' }), 'patch');
    expect(patched.fields).toEqual({ ...current, invoice_note: null, language: 'da' });
    expect(applyWrite(ACCOUNT_SHAPE, current, write({ language: 'da' }), 'replace').violations).toHaveLength(5);
    expect(applyWrite(ACCOUNT_SHAPE, current, write({ language: null }), 'patch').violations).toEqual([
      { field: 'language', description: 'This field may not be null.' },
    ]);
  });
});

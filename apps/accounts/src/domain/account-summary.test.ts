import { describe, expect, it } from 'vitest';
import { accountSummary } from './account-summary.js';

const PERSON = {
  code: 'jd',
  company_name: null,
  first_name: 'Jane',
  middle_name: null,
  last_name: 'Doe',
  type: null,
  default_payment_terms: null,
};

describe('accountSummary', () => {
  it('names a person by their full name and counts an untyped account without a company as a person', () => {
    expect(accountSummary('u-1', PERSON)).toEqual({
      uuid: 'u-1',
      code: 'jd',
      display_name: 'Jane Doe',
      company_name: null,
      type: 'person',
      payment_terms: null,
    });
  });

  it('counts an untyped account with a company name as a company and keeps its payment terms', () => {
    expect(accountSummary('u-2', { ...PERSON, company_name: 'Acme ApS', default_payment_terms: 30 })).toEqual({
      uuid: 'u-2',
      code: 'jd',
      display_name: 'Acme ApS',
      company_name: 'Acme ApS',
      type: 'company',
      payment_terms: 30,
    });
  });

  it('keeps an explicit type and falls back to the code for the name', () => {
    expect(accountSummary('u-3', { ...PERSON, first_name: null, last_name: null, type: 'company' })).toMatchObject({
      display_name: 'jd',
      type: 'company',
    });
  });
});

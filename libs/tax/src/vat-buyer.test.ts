import { describe, expect, it } from 'vitest';
import { type BuyerAccount, decideBuyer } from './index.js';

const germanCompany: BuyerAccount = {
  uuid: '0b5c2f0e-8d3a-4c61-9a57-2f1e6b7d9c40',
  legal_country: 'DE',
  legal_vat_number: 'DE123456789',
};

describe('decideBuyer (gaps.md §5)', () => {
  it('a named account buys: its legal country, its VAT number and its uuid for its contract', () => {
    expect(decideBuyer({ account: germanCompany, organization_country: 'DK' })).toEqual({
      account: '0b5c2f0e-8d3a-4c61-9a57-2f1e6b7d9c40',
      country: 'DE',
      vat_number: 'DE123456789',
    });
  });

  it('a named account wins over account_country_code', () => {
    expect(decideBuyer({ account: germanCompany, requested_country: 'SE', organization_country: 'DK' })).toEqual({
      account: '0b5c2f0e-8d3a-4c61-9a57-2f1e6b7d9c40',
      country: 'DE',
      vat_number: 'DE123456789',
    });
  });

  it('an account without a VAT number keeps its empty number', () => {
    expect(decideBuyer({ account: { ...germanCompany, legal_vat_number: '' }, organization_country: 'DK' })).toEqual({
      account: '0b5c2f0e-8d3a-4c61-9a57-2f1e6b7d9c40',
      country: 'DE',
      vat_number: '',
    });
  });

  it('no account: a person in account_country_code, without VAT number or contract', () => {
    expect(decideBuyer({ account: null, requested_country: 'SE', organization_country: 'DK' })).toEqual({
      account: null,
      country: 'SE',
      vat_number: '',
    });
    expect(decideBuyer({ requested_country: 'US', organization_country: 'DK' })).toEqual({
      account: null,
      country: 'US',
      vat_number: '',
    });
  });

  it("no account and no country (null or absent): a person in the organization's country", () => {
    const person = { account: null, country: 'DK', vat_number: '' };
    expect(decideBuyer({ account: null, requested_country: null, organization_country: 'DK' })).toEqual(person);
    expect(decideBuyer({ organization_country: 'DK' })).toEqual(person);
    expect(decideBuyer({ requested_country: undefined, organization_country: 'FI' })).toEqual({
      ...person,
      country: 'FI',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { buyerEndpoint, type EinvoicingSettings, sellerEndpoint } from './endpoint.js';

const settings = (overrides: Partial<EinvoicingSettings>): EinvoicingSettings => ({
  ean_invoicing: true,
  einvoicing_identifier_schema: 'GLN',
  ean_number: '5790000435975',
  einvoicing_intermediator: null,
  legal_country: 'DK',
  ...overrides,
});

describe('Peppol endpoints', () => {
  it('the buyer: GLN (and no schema) is 0088, ORGNR the country register, ISO_6523_ICD as written', () => {
    expect(buyerEndpoint(settings({}))).toEqual({ scheme: '0088', id: '5790000435975' });
    expect(buyerEndpoint(settings({ einvoicing_identifier_schema: '' }))).toEqual({
      scheme: '0088',
      id: '5790000435975',
    });
    expect(buyerEndpoint(settings({ einvoicing_identifier_schema: 'ORGNR', ean_number: '87654321' }))).toEqual({
      scheme: '0184',
      id: '87654321',
    });
    expect(
      buyerEndpoint(settings({ einvoicing_identifier_schema: 'ORGNR', ean_number: '5567321707', legal_country: 'SE' })),
    ).toEqual({ scheme: '0007', id: '5567321707' });
    expect(
      buyerEndpoint(settings({ einvoicing_identifier_schema: 'ISO_6523_ICD', ean_number: '9930:DE123456789' })),
    ).toEqual({ scheme: '9930', id: 'DE123456789' });
  });

  it('no endpoint: not ean_invoicing, no number, a GLN that is not 13 digits, ORGNR of a country without a register scheme', () => {
    expect(buyerEndpoint(settings({ ean_invoicing: false }))).toBeNull();
    expect(buyerEndpoint(settings({ ean_number: null }))).toBeNull();
    expect(buyerEndpoint(settings({ ean_number: '57900004' }))).toBeNull();
    // A wrong GS1 check digit (…975 is right).
    expect(buyerEndpoint(settings({ ean_number: '5790000435974' }))).toBeNull();
    expect(buyerEndpoint(settings({ einvoicing_identifier_schema: 'ORGNR', legal_country: 'US' }))).toBeNull();
    expect(
      buyerEndpoint(settings({ einvoicing_identifier_schema: 'ISO_6523_ICD', ean_number: '5790000435975' })),
    ).toBeNull();
  });

  it('the seller: a Danish organization by CVR (0184), others by VAT number; none without one', () => {
    expect(sellerEndpoint({ country: 'DK', vat_number: 'DK12345678' })).toEqual({ scheme: '0184', id: '12345678' });
    expect(sellerEndpoint({ country: 'DK', vat_number: '12345678' })).toEqual({ scheme: '0184', id: '12345678' });
    expect(sellerEndpoint({ country: 'DE', vat_number: 'DE123456789' })).toEqual({ scheme: '9930', id: 'DE123456789' });
    expect(sellerEndpoint({ country: 'DK', vat_number: '' })).toBeNull();
    expect(sellerEndpoint({ country: 'US', vat_number: '12-3456789' })).toBeNull();
  });
});

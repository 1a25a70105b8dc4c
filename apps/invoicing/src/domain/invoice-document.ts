/** A party of an invoice as it was when the invoice was issued. */
export interface PartySnapshot {
  name: string;
  address: string;
  zipcode: string;
  city: string;
  country: string;
  vat_number: string;
  email: string;
}

/** One VAT rate's part of an invoice: base (sum of line subtotals), VAT rounded once per rate. */
export interface VatPart {
  rate: string;
  base: string;
  vat: string;
}

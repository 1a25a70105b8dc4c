/**
 * Peppol participant identifiers (endpoints, BT-49 and BT-34): a scheme from the Electronic
 * Address Scheme code list (EAS, ISO 6523 ICD values) and the identifier under it.
 */
export interface Endpoint {
  /** Four digits of the EAS list: 0088 GLN, 0184 DK CVR, 9930 DE VAT, ... */
  scheme: string;
  id: string;
}

/** The account's e-invoicing settings (api-spec Account), as the accounts service keeps them. */
export interface EinvoicingSettings {
  ean_invoicing: boolean;
  /** GLN, ORGNR, ISO_6523_ICD, or '' (read as GLN: the EAN invoice box the field is named after). */
  einvoicing_identifier_schema: string;
  ean_number: string | null;
  einvoicing_intermediator: string | null;
  /** The account's legal country: which national register ORGNR means. */
  legal_country: string;
}

/** EAS codes of national organization registers, by country (ORGNR). */
export const ORGNR_SCHEMES: Readonly<Record<string, string>> = {
  DK: '0184', // DK:DIGST, the CVR number
  SE: '0007', // SE:ORGNR
  NO: '0192', // NO:ORG
  FI: '0212', // FI:ORG
  NL: '0106', // NL:KVK
  BE: '0208', // BE:EN
  FR: '0002', // FR:SIRENE
  IS: '0196', // IS:KTNR
  LT: '0200', // LT:LEC
  EE: '0191', // EE:CC
};

/** EAS codes of VAT numbers, by country: the seller's endpoint outside Denmark. */
export const VAT_SCHEMES: Readonly<Record<string, string>> = {
  AT: '9914',
  BE: '9925',
  BG: '9926',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  ES: '9920',
  FI: '0213',
  FR: '9957',
  GB: '9932',
  GR: '9933',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  IT: '0211',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  SE: '9955',
  SI: '9949',
  SK: '9950',
};

const GLN_SCHEME = '0088';

/**
 * The buyer's endpoint from its ean_number and einvoicing_identifier_schema; null when the account
 * does not use e-invoicing or its settings name no endpoint Peppol can route to (the invoice is
 * then e-mailed as any other, docs/invoicing.md "E-invoices").
 */
export function buyerEndpoint(settings: EinvoicingSettings): Endpoint | null {
  if (!settings.ean_invoicing) return null;
  const number = (settings.ean_number ?? '').replace(/\s+/g, '');
  if (number === '') return null;
  switch (settings.einvoicing_identifier_schema) {
    case '':
    case 'GLN':
      return isGln(number) ? { scheme: GLN_SCHEME, id: number } : null;
    case 'ORGNR': {
      const scheme = ORGNR_SCHEMES[settings.legal_country.toUpperCase()];
      return scheme === undefined ? null : { scheme, id: number };
    }
    case 'ISO_6523_ICD': {
      // Written "<ICD>:<identifier>", as Peppol participant identifiers are.
      const match = /^(\d{4}):(.+)$/.exec(number);
      return match ? { scheme: match[1]!, id: match[2]! } : null;
    }
    default:
      return null;
  }
}

/**
 * The seller's endpoint: a Danish organization by its CVR number (0184, the VAT number without
 * "DK"), any other by its VAT number under its country's VAT scheme; null without a VAT number.
 */
export function sellerEndpoint(party: { country: string; vat_number: string }): Endpoint | null {
  const country = party.country.toUpperCase();
  const vat = party.vat_number.replace(/\s+/g, '').toUpperCase();
  if (vat === '') return null;
  if (country === 'DK') {
    const cvr = vat.replace(/^DK/, '');
    return /^\d{8}$/.test(cvr) ? { scheme: '0184', id: cvr } : null;
  }
  const scheme = VAT_SCHEMES[country];
  return scheme === undefined ? null : { scheme, id: vat };
}

/**
 * A GS1 Global Location Number: 13 digits, the last the GS1 check digit (weights 3 and 1 from the
 * right); Peppol refuses a GLN endpoint with a wrong one (PEPPOL-COMMON-R040).
 */
export function isGln(value: string): boolean {
  if (!/^\d{13}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

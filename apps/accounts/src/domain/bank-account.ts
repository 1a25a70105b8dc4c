import type { FieldViolation } from '@billing/errors';
import { isCountryCode, isCurrencyCode } from '@billing/reference-data';

/**
 * A bank account the organization is paid to (invoices name it in `pay_to_bank_account`, an
 * integer id). Either international (IBAN and BIC) or Danish domestic (reg. no. and account no.);
 * the unused pair is ''. `currency` null: for invoices in any currency without an account of
 * their own.
 */
export interface BankAccountDetails {
  currency: string | null;
  iban: string;
  bic: string;
  reg_number: string;
  account_number: string;
}

/** "dk50 0040 0440 1162 43" → "DK5000400440116243": how IBANs are written vs. stored. */
export const compactIban = (iban: string): string => iban.replace(/\s+/g, '').toUpperCase();

/** ISO 13616: move the first four characters to the end, letters as 10..35, the number mod 97 is 1. */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

function ibanViolation(iban: string): string | undefined {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) || !isCountryCode(iban.slice(0, 2))) {
    return 'Enter a valid IBAN: a country code, two check digits and up to 30 letters or digits.';
  }
  if (!ibanChecksumValid(iban)) return 'The IBAN check digits do not match: check the number.';
  return undefined;
}

/** ISO 9362: bank code (4 letters), country (2 letters), location (2), optional branch (3). */
function bicViolation(bic: string): string | undefined {
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic) || !isCountryCode(bic.slice(4, 6))) {
    return 'Enter a valid BIC: 8 or 11 letters and digits (bank, country, location, branch).';
  }
  return undefined;
}

/** The details as stored: IBAN without spaces, IBAN and BIC upper case, the rest trimmed. */
export function normalizeBankAccount(details: BankAccountDetails): BankAccountDetails {
  return {
    currency: details.currency === null || details.currency === '' ? null : details.currency.trim().toUpperCase(),
    iban: compactIban(details.iban),
    bic: details.bic.replace(/\s+/g, '').toUpperCase(),
    reg_number: details.reg_number.trim(),
    account_number: details.account_number.trim(),
  };
}

/**
 * What is wrong with normalized details: exactly one of the two forms, each part in its format, a
 * known currency, and at most one account per currency (`taken`: the currencies the organization's
 * other accounts have, null for the any-currency one).
 */
export function validateBankAccount(
  details: BankAccountDetails,
  taken: ReadonlyArray<{ id: number; currency: string | null }>,
): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const bad = (field: string, description: string) => violations.push({ field, description });
  const international = details.iban !== '' || details.bic !== '';
  const domestic = details.reg_number !== '' || details.account_number !== '';
  if (international && domestic) {
    bad('non_field_errors', 'Give either --iban and --bic or --reg-number and --account-number, not both.');
  } else if (!international && !domestic) {
    bad('non_field_errors', 'Give --iban and --bic, or --reg-number and --account-number.');
  } else if (international) {
    const iban = details.iban === '' ? 'This field is required with --bic.' : ibanViolation(details.iban);
    if (iban) bad('iban', iban);
    const bic = details.bic === '' ? 'This field is required with --iban.' : bicViolation(details.bic);
    if (bic) bad('bic', bic);
  } else {
    if (!/^\d{4}$/.test(details.reg_number)) bad('reg_number', 'Enter the 4 digits of the registration number.');
    if (!/^\d{1,10}$/.test(details.account_number)) bad('account_number', 'Enter an account number of 1 to 10 digits.');
  }
  if (details.currency !== null && !isCurrencyCode(details.currency)) {
    bad('currency', `"${details.currency}" is not a valid choice.`);
  } else {
    const same = taken.find((other) => other.currency === details.currency);
    if (same) {
      bad(
        'currency',
        details.currency === null
          ? `Bank account ${same.id} already takes payments in every other currency; remove it first.`
          : `Bank account ${same.id} already takes payments in ${details.currency}; remove it first.`,
      );
    }
  }
  return violations;
}

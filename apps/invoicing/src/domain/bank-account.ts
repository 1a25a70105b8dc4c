/**
 * A bank account of the seller as an invoice names it (`pay_to_bank_account` is its id) and prints
 * it: IBAN and BIC, or a Danish registration and account number ('' for the unused pair).
 */
export interface BankAccountSnapshot {
  id: number;
  /** The invoices in this currency are paid to it; null: every currency without an account of its own. */
  currency: string | null;
  iban: string;
  bic: string;
  reg_number: string;
  account_number: string;
}

/**
 * The bank account an invoice in `currency` is paid to (docs/invoicing.md): the organization's
 * account for that currency, else its account for every other currency, else none.
 */
export function payToBankAccount(
  accounts: readonly BankAccountSnapshot[],
  currency: string,
): BankAccountSnapshot | null {
  return (
    accounts.find((account) => account.currency === currency) ??
    accounts.find((account) => account.currency === null) ??
    null
  );
}

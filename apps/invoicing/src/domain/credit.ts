import { type Decimal, MoneyDecimal, money } from '@billing/money';

/**
 * The most of a credit note's unused credit (its negative balance) that an invoice can take: never
 * more than the credit left nor than the invoice still owes, and zero when either has nothing.
 */
export function creditToApply(creditNoteBalance: string, invoiceBalance: string): Decimal {
  const available = money(creditNoteBalance).negated();
  const owed = money(invoiceBalance);
  return MoneyDecimal.max(0, MoneyDecimal.min(available, owed));
}

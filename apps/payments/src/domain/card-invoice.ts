import { money } from '@billing/money';
import type { CardInvoice } from './directory.js';

/**
 * gaps.md §11: an issued invoice is charged by card when its collection method is payment_card,
 * it is open and it owes something (credit notes and zero balances are never charged).
 */
export function isChargeable(invoice: CardInvoice): boolean {
  return (
    invoice.collectionMethod === 'payment_card' &&
    invoice.status === 'open' &&
    !invoice.isCreditNote &&
    money(invoice.balance).greaterThan(0)
  );
}

import { startOfLocalDay } from '@billing/clock';
import { dueDate } from './compose-invoice.js';
import type { Buyer, Seller } from './directory.js';
import {
  dayAfter,
  resellerBillingFrequency,
  resellerBillingGrouping,
  resellerCollectionDay,
  resellerGroupKey,
  resellerInvoicePoNumber,
} from './reseller-billing.js';

/** What a resold charge's line carries that decides its reseller invoice. */
export interface ResoldCharge {
  currency: string;
  po_number: string;
}

/** The reseller invoice a resold account's line joins (or starts), and when it is issued. */
export interface ResellerInvoicePlan {
  group_key: string;
  /** The collection day: the invoice's date. */
  date: string;
  due_date: string;
  payment_terms: number;
  collection_method: string;
  po_number: string;
  /**
   * When the grouped-invoice issuer issues it: the end of the collection day where the organization
   * is. Null on a test clock, whose advance issues it instead once its clock is past that day.
   */
  issue_after: Date | null;
  /** The account each line names: the one it was resold to. */
  line_account: { id: string; code: string };
}

/**
 * gaps.md §3: a line of `resold` (an account naming `reseller`) dated `lineDay` goes to the
 * reseller's invoice of its collection day (the reseller's billing frequency) and group (its
 * grouping). The reseller pays, so the invoice has the reseller's payment terms and collection
 * method (else the organization's), not the resold subscription's.
 */
export function resellerInvoicePlan(
  charge: ResoldCharge,
  resold: Pick<Buyer, 'account_id' | 'code'>,
  reseller: Pick<
    Buyer,
    'account_id' | 'payment_terms' | 'collection_method' | 'reseller_billing_frequency' | 'reseller_billing_grouping'
  >,
  seller: Pick<Seller, 'time_zone' | 'default_payment_terms' | 'default_collection_method' | 'test_clock_time'>,
  lineDay: string,
): ResellerInvoicePlan {
  const frequency = resellerBillingFrequency(reseller.reseller_billing_frequency);
  const grouping = resellerBillingGrouping(reseller.reseller_billing_grouping);
  const date = resellerCollectionDay(lineDay, frequency);
  const paymentTerms = reseller.payment_terms ?? seller.default_payment_terms;
  return {
    group_key: resellerGroupKey(
      {
        reseller: reseller.account_id,
        collection_day: date,
        currency: charge.currency,
        resold_account: resold.account_id,
        po_number: charge.po_number,
      },
      grouping,
    ),
    date,
    due_date: dueDate(date, paymentTerms),
    payment_terms: paymentTerms,
    collection_method: reseller.collection_method ?? seller.default_collection_method,
    po_number: resellerInvoicePoNumber(charge.po_number, grouping),
    issue_after: seller.test_clock_time ? null : startOfLocalDay(dayAfter(date), seller.time_zone),
    line_account: { id: resold.account_id, code: resold.code },
  };
}

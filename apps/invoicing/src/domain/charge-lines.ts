import type { LineSource } from './compose-invoice.js';
import { type Language, type TextKey, text } from './language/texts.js';

/** The facts of one line of an engine charge that an invoice line needs (what charge.created carries). */
export interface ChargeLineFacts {
  kind: string;
  terms: string;
  plan: string;
  plan_name: string;
  plan_code: string;
  terms_code: string;
  collect_vat: boolean;
  vat_type: string;
  date_from: string;
  date_to: string;
  days: number;
  period_days: number;
  period_date_from: string;
  period_date_to: string;
  quantity: number;
  unit_price: string;
  price_source: string;
  tiers_applied: readonly unknown[];
  discounted_unit_price: string;
  amount: string;
}

/** The facts of an engine charge an invoice is made from. */
export interface ChargeFacts {
  subscription: string;
  account: string;
  kind: string;
  currency: string;
  group_on_invoice: boolean;
  po_number: string;
  collection_method: string;
  invoice_supplement: string | null;
  reference_person: string;
  account_reference_person: string;
  case_number: string;
  custom_fields: Record<string, unknown>;
  lines: readonly ChargeLineFacts[];
}

/** A line of an engine charge, ready for an invoice, with what it came from. */
export interface ChargeLineSource extends LineSource {
  subscription: string;
  terms: string;
  product_id: string;
  pricing: Record<string, unknown>;
  reference_person: string;
  account_reference_person: string;
  po_number: string;
  case_number: string;
  invoice_supplement: string | null;
  custom_fields: Record<string, unknown>;
}

/** What a line that is not a renewal is (a renewal line is its plan and terms alone). */
const LINE_LABELS: Readonly<Record<string, Extract<TextKey, `line${string}`>>> = {
  change_credit: 'lineChangeCredit',
  change_charge: 'lineChangeCharge',
  change_elapsed: 'lineChangeElapsed',
  cancel_credit: 'lineCancelCredit',
  cancel_elapsed: 'lineCancelElapsed',
};

/**
 * The description a person reads on the invoice, in the invoice's language (the account's): plan
 * and terms, what the line is when it is not a whole period, the share of the period it charges
 * ("12 of 30 days", "12 af 30 dage"), then the subscription's invoice supplement and the
 * account's invoice note.
 */
export function lineDescription(
  line: ChargeLineFacts,
  extras: { invoice_supplement?: string | null; invoice_note?: string | null },
  language: Language,
): string {
  const parts = [`${line.plan_name} (${line.terms_code})`];
  const label = LINE_LABELS[line.kind];
  if (label) parts.push(text(language, label));
  if (line.days !== line.period_days) {
    parts.push(text(language, 'prorationShare', { days: line.days, periodDays: line.period_days }));
  }
  let description = parts.join(', ');
  if (extras.invoice_supplement) description += `\n${extras.invoice_supplement}`;
  if (extras.invoice_note) description += `\n${extras.invoice_note}`;
  return description;
}

/** Invoice line sources of a charge, in the charge's order, described in `language`. */
export function chargeLineSources(
  charge: ChargeFacts,
  invoiceNote: string | null,
  language: Language,
): ChargeLineSource[] {
  return charge.lines.map((line) => ({
    description: lineDescription(
      line,
      { invoice_supplement: charge.invoice_supplement, invoice_note: invoiceNote },
      language,
    ),
    sku: line.plan_code,
    vat_type: line.vat_type,
    collect_vat: line.collect_vat,
    date_from: line.date_from,
    date_to: line.date_to,
    price: line.discounted_unit_price,
    quantity: String(line.quantity),
    subtotal: line.amount,
    subscription: charge.subscription,
    terms: line.terms,
    product_id: line.plan,
    pricing: {
      kind: line.kind,
      unit_price: line.unit_price,
      price_source: line.price_source,
      tiers_applied: line.tiers_applied,
      discounted_unit_price: line.discounted_unit_price,
      quantity: line.quantity,
      days: line.days,
      period_days: line.period_days,
      period_date_from: line.period_date_from,
      period_date_to: line.period_date_to,
    },
    reference_person: charge.reference_person,
    account_reference_person: charge.account_reference_person,
    po_number: charge.po_number,
    case_number: charge.case_number,
    invoice_supplement: charge.invoice_supplement,
    custom_fields: charge.custom_fields,
  }));
}

/**
 * Renewal charges of group_on_invoice subscriptions share an invoice when account, renewal date,
 * currency, payment terms, collection method and PO number match (gaps §6); everything else
 * (changes, cancellations, reactivations, ungrouped renewals) has its own invoice: null.
 */
export function groupKey(charge: ChargeFacts, renewalDate: string, paymentTerms: number): string | null {
  if (charge.kind !== 'renewal' || !charge.group_on_invoice) return null;
  return JSON.stringify([
    charge.account,
    renewalDate,
    charge.currency,
    paymentTerms,
    charge.collection_method,
    charge.po_number,
  ]);
}

import { type CurrencyCode, formatAmount, money, sum } from '@billing/money';
import { decideVat, formatVatRate, VAT_REASON_TEXT, vatAmount } from '@billing/tax';
import type { VatPart } from './invoice-view.js';

/** What a line is made from (a charge line of the engine, a draft line, a credited line). */
export interface LineSource {
  description: string;
  sku: string;
  vat_type: string;
  collect_vat: boolean;
  date_from: string | null;
  date_to: string | null;
  /** Exact unit price after discounts. */
  price: string;
  quantity: string;
  /** Already rounded to the currency's minor unit (negative for credits). */
  subtotal: string;
}

export interface ComposedLine<S extends LineSource> {
  source: S;
  vat_rate: string;
  vat: string;
  total: string;
}

export interface ComposedTotals {
  subtotal: string;
  vat: string;
  total: string;
  vat_breakdown: VatPart[];
  reverse_charge: boolean;
  /** The sentence the documents print about VAT (reverse charge, or why none), or ''. */
  vat_note: string;
}

export interface VatParties {
  seller_country: string;
  buyer_country: string;
  buyer_vat_number: string | null;
}

/**
 * The VAT of every line (gaps §7, libs/tax) and the invoice totals: VAT is computed per rate on
 * the sum of the lines at that rate and rounded once (the invoice's VAT is the sum of the rates'
 * VAT); each line shows its own rounded VAT for reference. Subtotal is the sum of the lines.
 */
export function composeInvoice<S extends LineSource>(
  sources: readonly S[],
  parties: VatParties,
  currency: CurrencyCode,
): { lines: ComposedLine<S>[]; totals: ComposedTotals } {
  let reverseCharge = false;
  let note = '';
  const lines = sources.map((source) => {
    const decision = decideVat({ ...parties, collect_vat: source.collect_vat });
    if (decision.reverse_charge) reverseCharge = true;
    if (!note && decision.reason !== 'domestic' && decision.reason !== 'not_collected')
      note = VAT_REASON_TEXT[decision.reason];
    const vat = vatAmount(source.subtotal, decision.rate, currency);
    return {
      source,
      vat_rate: decision.rate,
      vat: formatAmount(vat, currency),
      total: formatAmount(money(source.subtotal).plus(vat), currency),
    };
  });
  const byRate = new Map<string, string[]>();
  for (const line of lines) byRate.set(line.vat_rate, [...(byRate.get(line.vat_rate) ?? []), line.source.subtotal]);
  const breakdown: VatPart[] = [...byRate.entries()]
    .sort(([a], [b]) => money(b).comparedTo(money(a)))
    .map(([rate, subtotals]) => {
      const base = sum(subtotals.map((value) => money(value)));
      return {
        rate: formatVatRate(rate),
        base: formatAmount(base, currency),
        vat: formatAmount(vatAmount(base, rate, currency), currency),
      };
    });
  const subtotal = sum(sources.map((source) => money(source.subtotal)));
  const vat = sum(breakdown.map((part) => money(part.vat)));
  return {
    lines,
    totals: {
      subtotal: formatAmount(subtotal, currency),
      vat: formatAmount(vat, currency),
      total: formatAmount(subtotal.plus(vat), currency),
      vat_breakdown: breakdown,
      reverse_charge: reverseCharge,
      vat_note: note,
    },
  };
}

/** The due date: `date` plus the payment terms in days (YYYY-MM-DD arithmetic on the calendar). */
export function dueDate(date: string, paymentTerms: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const due = new Date(Date.UTC(year, month - 1, day + paymentTerms));
  return due.toISOString().slice(0, 10);
}

/** Status from the balance: a document with nothing left to settle is paid or credited. */
export function settledStatus(balance: string, settledBy: 'payment' | 'credit'): 'open' | 'paid' | 'credited' {
  if (!money(balance).isZero()) return 'open';
  return settledBy === 'payment' ? 'paid' : 'credited';
}

import { type CurrencyCode, formatAmount, MoneyDecimal } from '@billing/money';
import { isEuCountry } from '@billing/reference-data';
import type { Decimal } from 'decimal.js';
import type { InvoiceView } from './invoice-view.js';

export const VAT_EXPORT_COUNTRIES = ['world_wide', 'eu_countries'] as const;
export const VAT_EXPORT_GRANULARITIES = ['invoice', 'account'] as const;

/** The VAT export's choices (gaps.md §9). */
export interface VatExportOptions {
  countries: (typeof VAT_EXPORT_COUNTRIES)[number];
  granularity: (typeof VAT_EXPORT_GRANULARITIES)[number];
  /** The organization's base currency and its rates: base currency per unit of a currency. */
  baseCurrency: string;
  exchangeRate(currency: string, date: string): string | null;
}

/** One row of the VAT export (a row per invoice, or per account, currency and VAT rate). */
export interface VatExportRow {
  invoice_number: string | null;
  date: string;
  account_code: string;
  account_name: string;
  country: string;
  vat_number: string;
  currency: string;
  subtotal: string;
  vat: string;
  total: string;
  vat_rate: string;
  reverse_charge: boolean;
  base_currency: string;
  /** '' (and no base amounts) when the organization has no rate for the currency on that day. */
  exchange_rate: string;
  subtotal_base: string;
  vat_base: string;
  total_base: string;
  is_credit_note: boolean;
  invoices: number;
}

/**
 * Whether the export keeps the invoice: `eu_countries` keeps buyers in EU countries other than
 * the seller's (intra-community supplies), `world_wide` every invoice.
 */
export function vatExportKeeps(
  invoice: Pick<InvoiceView, 'buyer' | 'seller'>,
  options: Pick<VatExportOptions, 'countries'>,
) {
  if (options.countries === 'world_wide') return true;
  return isEuCountry(invoice.buyer.country) && invoice.buyer.country !== invoice.seller.country;
}

type Amounts = Pick<VatExportRow, 'subtotal' | 'vat' | 'total'>;

/** The base-currency columns: each amount times the day's rate, rounded half-up to the base currency. */
function inBaseCurrency(amounts: Amounts, currency: string, date: string, options: VatExportOptions) {
  const rate = currency === options.baseCurrency ? '1' : options.exchangeRate(currency, date);
  const base = (amount: string) =>
    rate === null ? '' : formatAmount(new MoneyDecimal(amount).times(rate), options.baseCurrency as CurrencyCode);
  return {
    base_currency: options.baseCurrency,
    exchange_rate: rate ?? '',
    subtotal_base: base(amounts.subtotal),
    vat_base: base(amounts.vat),
    total_base: base(amounts.total),
  };
}

/** The row of one invoice or credit note: its amounts, its rates (";" between several), its buyer. */
export function vatInvoiceRow(invoice: InvoiceView, options: VatExportOptions): VatExportRow {
  return {
    invoice_number: invoice.invoice_number,
    date: invoice.date,
    account_code: invoice.account_code,
    account_name: invoice.buyer.name,
    country: invoice.buyer.country,
    vat_number: invoice.buyer.vat_number,
    currency: invoice.currency,
    subtotal: invoice.subtotal,
    vat: invoice.vat,
    total: invoice.total,
    vat_rate: invoice.vat_breakdown.map((part) => part.rate).join(';'),
    reverse_charge: invoice.reverse_charge,
    ...inBaseCurrency(invoice, invoice.currency, invoice.date, options),
    is_credit_note: invoice.is_credit_note,
    invoices: 1,
  };
}

/** The group of a row per account: invoices of one account code, account and currency. */
export const vatAccountKey = (invoice: Pick<InvoiceView, 'account_code' | 'account' | 'currency'>): string =>
  `${invoice.account_code}:${invoice.account}:${invoice.currency}`;

interface RatePart {
  rate: string;
  reverseCharge: boolean;
  base: Decimal;
  vat: Decimal;
  /** Null once an invoice summed had no exchange rate: the base amounts are then unknown. */
  inBase: { subtotal: Decimal; vat: Decimal; total: Decimal } | null;
  exchangeRates: Set<string>;
  invoices: number;
}

const zero = () => new MoneyDecimal(0);

/**
 * Sums the invoices of one account and currency, fed in the export's order (account, currency),
 * into a row per VAT rate (and reverse charge or not): the base and VAT of those parts, their
 * base-currency amounts converted invoice by invoice (each at its day's rate), the buyer as its
 * latest invoice states it.
 */
export class VatAccountTotals {
  private readonly parts = new Map<string, RatePart>();
  private latest: InvoiceView | null = null;

  constructor(private readonly options: VatExportOptions) {}

  /** The (account, currency) the invoices being summed belong to, or null before the first one. */
  get key(): string | null {
    return this.latest ? vatAccountKey(this.latest) : null;
  }

  add(invoice: InvoiceView): void {
    this.latest = invoice;
    for (const { rate, base, vat } of invoice.vat_breakdown) {
      const key = `${rate}:${invoice.reverse_charge}`;
      const part = this.parts.get(key) ?? {
        rate,
        reverseCharge: invoice.reverse_charge,
        base: zero(),
        vat: zero(),
        inBase: { subtotal: zero(), vat: zero(), total: zero() },
        exchangeRates: new Set<string>(),
        invoices: 0,
      };
      const total = new MoneyDecimal(base).plus(vat).toString();
      const converted = inBaseCurrency({ subtotal: base, vat, total }, invoice.currency, invoice.date, this.options);
      part.base = part.base.plus(base);
      part.vat = part.vat.plus(vat);
      part.invoices += 1;
      part.exchangeRates.add(converted.exchange_rate);
      part.inBase =
        part.inBase && converted.exchange_rate !== ''
          ? {
              subtotal: part.inBase.subtotal.plus(converted.subtotal_base),
              vat: part.inBase.vat.plus(converted.vat_base),
              total: part.inBase.total.plus(converted.total_base),
            }
          : null;
      this.parts.set(key, part);
    }
  }

  /** The rows summed so far (lowest rate first, reverse charge after), and a fresh start. */
  take(): VatExportRow[] {
    const invoice = this.latest;
    if (!invoice) return [];
    const currency = invoice.currency as CurrencyCode;
    const base = this.options.baseCurrency as CurrencyCode;
    const rows = [...this.parts.values()]
      .sort((a, b) => new MoneyDecimal(a.rate).comparedTo(b.rate) || Number(a.reverseCharge) - Number(b.reverseCharge))
      .map((part): VatExportRow => {
        const rates = [...part.exchangeRates];
        return {
          invoice_number: null,
          date: '',
          account_code: invoice.account_code,
          account_name: invoice.buyer.name,
          country: invoice.buyer.country,
          vat_number: invoice.buyer.vat_number,
          currency: invoice.currency,
          subtotal: formatAmount(part.base, currency),
          vat: formatAmount(part.vat, currency),
          total: formatAmount(part.base.plus(part.vat), currency),
          vat_rate: part.rate,
          reverse_charge: part.reverseCharge,
          base_currency: this.options.baseCurrency,
          // The one rate every invoice summed was converted at, else '' (the sums stay exact).
          exchange_rate: rates.length === 1 ? rates[0]! : '',
          subtotal_base: part.inBase ? formatAmount(part.inBase.subtotal, base) : '',
          vat_base: part.inBase ? formatAmount(part.inBase.vat, base) : '',
          total_base: part.inBase ? formatAmount(part.inBase.total, base) : '',
          is_credit_note: false,
          invoices: part.invoices,
        };
      });
    this.parts.clear();
    this.latest = null;
    return rows;
  }
}

import { createHash } from 'node:crypto';

/** A month with invoices, as the VAT billing periods list shows it. */
export interface VatBillingPeriod {
  /** Stable for (organization, month) across calls. */
  uuid: string;
  /** "January 2026". */
  display_name: string;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The organization's VAT billing period of `month` (YYYY-MM): a name-based (v5-shaped) uuid and its name. */
export function vatBillingPeriod(organizationId: string, month: string): VatBillingPeriod {
  return {
    uuid: periodUuid(organizationId, month),
    display_name: `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`,
  };
}

/** A stable uuid for (organization, YYYY-MM): the period's identity across calls. */
function periodUuid(organizationId: string, month: string): string {
  const hex = createHash('sha256').update(`${organizationId}:vat-period:${month}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

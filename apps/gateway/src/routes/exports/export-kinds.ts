import { accountsV1, analyticsV1, invoicingV1, subscriptionsV1 } from '@billing/proto';
import { z } from 'zod';
import type { ExportingService, ServiceClients } from '../../clients/service-clients.js';
import { presentAccountsWithSets } from '../accounts/account-list.js';
import { AccountSchema } from '../accounts/account-schemas.js';
import { loadActivityPlans, presentAccountActivity, presentActivity } from '../activities/activity-representation.js';
import { AccountActivitySchema, ActivitySchema } from '../activities/activity-schemas.js';
import { InvoiceListItemSchema } from '../invoices/invoice-schemas.js';
import { presentSubscriptions } from '../subscriptions/subscription-embeds.js';
import { SubscriptionSchema } from '../subscriptions/subscription-schemas.js';

/**
 * A kind of export as the gateway knows it: which service runs it, the representation whose
 * fields are its columns, and how a stored page (the service's page message) becomes the items of
 * that representation, presented exactly as the list presents a page.
 */
export interface ExportKind {
  kind: string;
  owner: ExportingService;
  /** The file's name stem: `<stem>-<job uuid>.csv`. */
  fileStem: string;
  item: z.ZodObject;
  /**
   * How a stored page becomes the items of the representation; absent for a kind whose pages are
   * already the file's CSV records, gzip-compressed (the owner wrote them as this representation's
   * CSV: libs/exports csvPagesOfCopy, gzippedPages), unpacked and sent on as they are.
   */
  present?(clients: ServiceClients, page: Uint8Array): Promise<readonly object[]>;
}

const date = () => z.string().meta({ format: 'date' });
const decimal = () => z.string().meta({ format: 'decimal' });

/** A row of the VAT export (gaps.md §9; docs/api.md "Exports"). */
export const VatExportRowSchema = z
  .object({
    invoice_number: z.int().nullable(),
    date: date().nullable(),
    account_code: z.string(),
    account_name: z.string(),
    country: z.string(),
    vat_number: z.string(),
    currency: z.string(),
    subtotal: decimal(),
    vat: decimal(),
    total: decimal(),
    vat_rate: z.string(),
    reverse_charge: z.boolean(),
    base_currency: z.string(),
    exchange_rate: decimal().nullable(),
    subtotal_base: decimal().nullable(),
    vat_base: decimal().nullable(),
    total_base: decimal().nullable(),
    is_credit_note: z.boolean(),
    invoices: z.int(),
  })
  .meta({ id: 'VatExportRow' });

export function presentVatExportRow(row: invoicingV1.VatExportRow): z.input<typeof VatExportRowSchema> {
  const orNull = (text: string) => (text === '' ? null : text);
  return {
    invoice_number: row.invoice_number === undefined ? null : Number(row.invoice_number),
    date: orNull(row.date),
    account_code: row.account_code,
    account_name: row.account_name,
    country: row.country,
    vat_number: row.vat_number,
    currency: row.currency,
    subtotal: row.subtotal,
    vat: row.vat,
    total: row.total,
    vat_rate: row.vat_rate,
    reverse_charge: row.reverse_charge,
    base_currency: row.base_currency,
    exchange_rate: orNull(row.exchange_rate),
    subtotal_base: orNull(row.subtotal_base),
    vat_base: orNull(row.vat_base),
    total_base: orNull(row.total_base),
    is_credit_note: row.is_credit_note,
    invoices: row.invoices,
  };
}

export const INVOICE_EXPORT: ExportKind = {
  kind: 'invoices',
  owner: 'invoicing',
  fileStem: 'invoices',
  item: InvoiceListItemSchema,
  // Invoicing writes the records (its db/invoice-csv-query.ts): one set-based COPY instead of
  // presenting 100,000 invoices here; the contract tests hold both to the same bytes.
};

export const VAT_EXPORT: ExportKind = {
  kind: 'vat',
  owner: 'invoicing',
  fileStem: 'vat',
  item: VatExportRowSchema,
  present: async (_clients, page) => invoicingV1.VatExportPage.decode(page).rows.map(presentVatExportRow),
};

export const SUBSCRIPTION_EXPORT: ExportKind = {
  kind: 'subscriptions',
  owner: 'subscriptions',
  fileStem: 'subscriptions',
  item: SubscriptionSchema,
  present: async (clients, page) =>
    presentSubscriptions(clients, subscriptionsV1.ListSubscriptionsResponse.decode(page).subscriptions),
};

export const ACCOUNT_EXPORT: ExportKind = {
  kind: 'accounts',
  owner: 'accounts',
  fileStem: 'accounts',
  item: AccountSchema,
  present: async (clients, page) => {
    const { accounts, embeds } = accountsV1.ListAccountsResponse.decode(page);
    return presentAccountsWithSets(clients)(accounts, embeds, {});
  },
};

export const ACTIVITY_EXPORT: ExportKind = {
  kind: 'activities',
  owner: 'analytics',
  fileStem: 'activities',
  item: ActivitySchema,
  present: async (clients, page) => {
    const { activities } = analyticsV1.ListActivitiesResponse.decode(page);
    const plans = await loadActivityPlans(clients, activities);
    return activities.map((activity) => presentActivity(activity, plans));
  },
};

export const ACCOUNT_ACTIVITY_EXPORT: ExportKind = {
  kind: 'account_activities',
  owner: 'analytics',
  fileStem: 'account-activities',
  item: AccountActivitySchema,
  present: async (_clients, page) =>
    analyticsV1.ListAccountActivitiesResponse.decode(page).account_activities.map(presentAccountActivity),
};

/** Every kind the gateway downloads, by the kind a job reports. */
export const EXPORT_KINDS: ReadonlyMap<string, ExportKind> = new Map(
  [INVOICE_EXPORT, VAT_EXPORT, SUBSCRIPTION_EXPORT, ACCOUNT_EXPORT, ACTIVITY_EXPORT, ACCOUNT_ACTIVITY_EXPORT].map(
    (kind) => [kind.kind, kind],
  ),
);

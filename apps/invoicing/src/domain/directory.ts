import type { RequestContext } from '@billing/observability';
import type { BankAccountSnapshot } from './bank-account.js';
import type { FieldMapping } from './einvoice/einvoice-snapshot.js';
import type { EinvoicingSettings } from './einvoice/endpoint.js';
import type { ExchangeRate } from './exchange-rates.js';
import type { PartySnapshot } from './invoice-view.js';

/** The buyer of an invoice: the account as the accounts service has it now. */
export interface Buyer {
  account_id: string;
  code: string;
  party: PartySnapshot;
  language: string;
  invoice_note: string | null;
  payment_terms: number | null;
  /** The account's default collection method; null: the organization's applies. */
  collection_method: string | null;
  /** Recipients with receive_invoice. */
  recipients: { email: string; name: string }[];
  /** The account's e-invoicing settings (ean_invoicing, ean_number, ...). */
  einvoicing: EinvoicingSettings;
  /**
   * The organization's peppol_bis field mappings, asked for only when the account has
   * ean_invoicing (else []): they are copied into its e-invoices.
   */
  einvoice_field_mappings: FieldMapping[];
  /** False: no payment reminders are sent for the account. */
  is_getting_reminders: boolean;
  /** The account's reseller (api-spec `reseller`): its lines are invoiced to that account; null: none. */
  reseller: string | null;
  /** As a reseller, how the invoices for the accounts it resells are collected and grouped (null: the defaults). */
  reseller_billing_frequency: string | null;
  reseller_billing_grouping: string | null;
}

/** An account as list views embed it (the accounts service's AccountSummary). */
export interface AccountSummary {
  uuid: string;
  code: string;
  display_name: string;
  company_name: string | null;
  /** company or person */
  type: string;
}

/** The seller: the organization. */
export interface Seller {
  party: PartySnapshot;
  time_zone: string;
  default_payment_terms: number;
  default_collection_method: string;
  /** The bank accounts invoices are paid to (payToBankAccount chooses by currency). */
  bank_accounts: BankAccountSnapshot[];
  /** The currency of a draft line written without one (gaps.md §3). */
  base_currency: string;
  /** The organization's exchange rates to its base currency (exchangeRateOn reads them). */
  exchange_rates: ExchangeRate[];
  /** Set for an organization on a test clock: its "now". */
  test_clock_time: Date | null;
  features: string[];
  /** Days after the due date on which an open invoice's payment reminder is mailed, ascending. */
  reminder_schedule_days: number[];
  /** The fee per reminder (decimal text); '' for none. */
  reminder_fee: string;
}

/** New invoices of one account, announced to the accounts service before their transaction commits. */
export interface InvoicesOfAccount {
  accountId: string;
  invoiceIds: readonly string[];
}

/**
 * Who invoicing asks about accounts and organizations (the accounts service owns them). Wired in
 * service.ts; its gRPC implementation is grpc/accounts-directory.ts.
 */
export interface Directory {
  buyer(context: RequestContext, accountId: string): Promise<Buyer>;
  /**
   * The buyers of these accounts, read together (a batch of charges): by account id, each as
   * `buyer` would give it; an account that does not exist is left out.
   */
  buyers(context: RequestContext, accountIds: readonly string[]): Promise<Map<string, Buyer>>;
  seller(context: RequestContext): Promise<Seller>;
  /** The accounts of these uuids that exist (an export's account columns). */
  accountSummaries(context: RequestContext, accountIds: readonly string[]): Promise<AccountSummary[]>;
  /**
   * Tells the accounts service of invoices about to be committed for the account (inside their
   * transaction: use-cases/announce-invoices.ts). Rejects with NOT_FOUND when the account is gone.
   */
  announceInvoices(context: RequestContext, accountId: string, invoiceIds: readonly string[]): Promise<void>;
  /** announceInvoices for several accounts in one call; NOT_FOUND (nothing announced) when one is gone. */
  announceAccountsInvoices(context: RequestContext, announcements: readonly InvoicesOfAccount[]): Promise<void>;
  close(): void;
}

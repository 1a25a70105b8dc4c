import type { RequestContext } from '@billing/observability';

/** What payments needs to know of an organization (owned by the accounts service). */
export interface OrganizationFacts {
  timeZone: string;
  /** Its test clock's time, or null on the real clock. */
  testClockTime: Date | null;
  dunningDays: number[];
  features: string[];
  name: string;
  email: string;
}

export interface AccountRecipient {
  name: string;
  email: string;
  receivePaymentConfirmation: boolean;
  receivePaymentCardNotifications: boolean;
}

export interface AccountFacts {
  uuid: string;
  code: string;
  name: string;
  language: string;
  recipients: AccountRecipient[];
}

/**
 * The accounts service as payments uses it (grpc/accounts-directory is the gRPC one). The
 * organization comes from the context.
 */
export interface Directory {
  organization(context: RequestContext): Promise<OrganizationFacts>;
  /** The account, or null when the organization has no account with that uuid. */
  account(context: RequestContext, accountId: string): Promise<AccountFacts | null>;
  /**
   * The organization's accounts named by uuid, in one call (the mail sender's batch), keyed by
   * uuid; uuids of no account of the organization are left out, as account answers null for them.
   * Absent (a directory without a batch call): one account call each.
   */
  accounts?(context: RequestContext, accountIds: readonly string[]): Promise<Map<string, AccountFacts>>;
  /** The organization's credentials for `gateway`, opened; null when it has none. */
  gatewayCredentials(context: RequestContext, gateway: string): Promise<Record<string, string> | null>;
  close(): void;
}

/** An issued card invoice as payments takes it in. */
export interface CardInvoice {
  invoiceId: string;
  accountId: string;
  invoiceNumber: string;
  status: string;
  collectionMethod: string;
  isCreditNote: boolean;
  /** What is owed, exact. */
  balance: string;
  currency: string;
  /** When it was issued (organization's clock): its first attempt falls due then. */
  issuedAt: Date | null;
}

/** The invoicing service as payments uses it. */
/** A succeeded card payment of an invoice, to settle with invoicing. */
export interface CardSettlement {
  invoiceId: string;
  paymentId: string;
  /** YYYY-MM-DD on the organization's clock. */
  paidDate: string;
}

export interface Invoicing {
  /** Marks the invoice paid by `paymentId` (idempotent). */
  settle(context: RequestContext, invoiceId: string, paymentId: string, paidDate: string): Promise<void>;
  /**
   * settle for several invoices of the organization in one call (idempotent); answers the invoices
   * invoicing found (paid now or settled before). Absent (an in-memory Invoicing): one settle each.
   */
  settleMany?(context: RequestContext, settlements: readonly CardSettlement[]): Promise<Set<string>>;
  /** The organization's open invoices with collection_method payment_card. */
  openCardInvoices(context: RequestContext): Promise<CardInvoice[]>;
  close(): void;
}

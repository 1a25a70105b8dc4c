/**
 * What the accounts service knows of an invoice (owned by the invoicing service): its latest state
 * as carried by `invoicing.invoice.*`, kept to answer the account list's `balance` filter and the
 * "no delete while invoiced" rule. Before its first event an invoice can be known as `announced`:
 * invoicing names each invoice it is about to commit before the commit (docs/architecture.md
 * "Invoices and account deletion").
 */

import { isUuid } from '@billing/domain-kit';
import { isDecimalString, MoneyDecimal } from '@billing/money';

/** Statuses an issued invoice or credit note has (gaps.md §7). */
export const INVOICE_STATUSES = ['open', 'paid', 'credited'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** An invoice invoicing is committing (or failed to commit): no state of it has arrived yet. */
export const ANNOUNCED_STATUS = 'announced';
/** The only status with a balance other than zero: what the account still owes, or credit not used yet. */
export const OPEN_STATUS: InvoiceStatus = 'open';

export interface InvoiceState {
  invoiceId: string;
  organizationId: string;
  accountId: string;
  status: InvoiceStatus;
  currency: string;
  /** The exact balance as a plain decimal string (negative for a credit note's unused credit). */
  balance: string;
  /** The invoice's `version` (1 when issued, +1 per change published): what orders its states. */
  version: number;
}

/** The fields of an `InvoiceChanged` payload's invoice this model reads. */
export interface InvoiceFacts {
  uuid: string;
  account: string;
  status: string;
  currency: string;
  balance: string;
  version: number;
}

/** An event that cannot be applied whatever happens next: never worth retrying. */
export class InvalidInvoiceEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidInvoiceEvent';
  }
}

const CURRENCY = /^[A-Z]{3}$/;

/** Checks what the filter, the delete rule and the ordering rely on. */
export function invoiceStateOf(organizationId: string, facts: InvoiceFacts | undefined): InvoiceState {
  if (!facts) throw new InvalidInvoiceEvent('the invoice event carries no invoice');
  const problems: string[] = [];
  if (!isUuid(organizationId)) problems.push(`organization "${organizationId}" is not a uuid`);
  if (!isUuid(facts.uuid)) problems.push(`uuid "${facts.uuid}" is not a uuid`);
  if (!isUuid(facts.account)) problems.push(`account "${facts.account}" is not a uuid`);
  if (!isInvoiceStatus(facts.status)) problems.push(`status "${facts.status}" is not one of ${INVOICE_STATUSES}`);
  if (!CURRENCY.test(facts.currency)) problems.push(`currency "${facts.currency}" is not a currency code`);
  if (!isDecimalString(facts.balance)) problems.push(`balance "${facts.balance}" is not a decimal`);
  // A state without a version would look equal to every later one: refused loudly, never frozen.
  if (!Number.isInteger(facts.version) || facts.version < 1) problems.push('version is missing');
  if (problems.length > 0 || !isInvoiceStatus(facts.status)) {
    throw new InvalidInvoiceEvent(`Unusable invoice ${facts.uuid}: ${problems.join('; ')}`);
  }
  return {
    invoiceId: facts.uuid.toLowerCase(),
    organizationId,
    accountId: facts.account.toLowerCase(),
    status: facts.status,
    currency: facts.currency,
    balance: facts.balance,
    version: facts.version,
  };
}

/**
 * Whether an incoming state replaces the stored one. States arrive by two paths (invoicing hands
 * them over right after its commit, and JetStream delivers them again, possibly out of order after
 * a failure), so only the invoice's version orders them: a strictly greater one replaces. An
 * announcement is version 0, so the first real state always replaces it.
 */
export function supersedes(stored: Pick<InvoiceState, 'version'>, incoming: Pick<InvoiceState, 'version'>): boolean {
  return incoming.version > stored.version;
}

/**
 * The `balance` filter's value as an exact decimal ("37.5", "37.50" and "+37.5" are the same), or
 * null when it is not a number; zero is always "0". Sums are compared exactly in the database,
 * never as floats.
 */
export function balanceFilterValue(text: string): string | null {
  const trimmed = text.trim();
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(trimmed)) return null;
  const value = new MoneyDecimal(trimmed);
  return value.isZero() ? '0' : value.toFixed();
}

function isInvoiceStatus(status: string): status is InvoiceStatus {
  return (INVOICE_STATUSES as readonly string[]).includes(status);
}

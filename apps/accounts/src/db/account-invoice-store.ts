import { executeBound, pgArray } from '@billing/db';
import { AppError } from '@billing/errors';
import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ANNOUNCED_STATUS, type InvoiceState, OPEN_STATUS, supersedes } from '../domain/invoice-state.js';
import type { AccountIdConstraint } from './account-id-constraint.js';
import { keyShareAccounts } from './accounts-by-id.js';
import { AccountInvoiceEntity, type AccountInvoiceRow } from './entities/account-invoice.entity.js';
import { type RecordOutcome, recordLatestState, recordLatestStates } from './latest-state-store.js';

function latestInvoiceState(state: InvoiceState, now: Date) {
  return {
    owner: { organizationId: state.organizationId, id: state.invoiceId },
    fields: {
      account_id: state.accountId,
      status: state.status,
      currency: state.currency,
      balance: state.balance,
      version: state.version,
      updated_at: now,
    },
    supersedes: (stored: AccountInvoiceRow) => supersedes(stored, state),
  };
}

/** Stores an invoice's state unless the stored one has the same or a greater version (domain rule `supersedes`). */
export function recordInvoiceState(em: EntityManager, state: InvoiceState, now: Date): Promise<RecordOutcome> {
  const latest = latestInvoiceState(state, now);
  return recordLatestState(em, AccountInvoiceEntity, latest.owner, latest.fields, latest.supersedes);
}

/** recordInvoiceState for a batch of states, as one after the other in list order (recordLatestStates). */
export function recordInvoiceStates(
  em: EntityManager,
  states: readonly InvoiceState[],
  now: Date,
): Promise<RecordOutcome[]> {
  return recordLatestStates(
    em,
    AccountInvoiceEntity,
    states.map((state) => latestInvoiceState(state, now)),
  );
}

/**
 * Records invoices invoicing is about to commit for the account, as `announced` rows (an invoice
 * already known keeps its row). The account row is share-locked first: a delete of the account
 * (which locks it for update) either ran before, and then the account is gone (NOT_FOUND: nothing
 * may be invoiced to it), or runs after and finds these rows. FOR KEY SHARE does not wait for
 * ordinary account updates, only for deletes.
 */
export function announceInvoices(
  em: EntityManager,
  organizationId: string,
  accountId: string,
  invoiceIds: readonly string[],
  now: Date,
): Promise<void> {
  return announceAccountsInvoices(em, organizationId, [{ accountId, invoiceIds }], now);
}

/**
 * announceInvoices for several accounts at once: their rows share-locked in one statement (in id
 * order, so two announcers never deadlock), NOT_FOUND naming one that does not exist, then every
 * announced row inserted by one statement.
 */
export async function announceAccountsInvoices(
  em: EntityManager,
  organizationId: string,
  announcements: readonly { accountId: string; invoiceIds: readonly string[] }[],
  now: Date,
): Promise<void> {
  const accountIds = [...new Set(announcements.map(({ accountId }) => accountId))].sort();
  if (accountIds.length === 0) return;
  const existing = await keyShareAccounts(em, organizationId, accountIds);
  const missing = accountIds.find((id) => !existing.has(id));
  if (missing !== undefined) throw AppError.notFound(`Account ${missing} does not exist.`);
  const rows = announcements.flatMap(({ accountId, invoiceIds }) => invoiceIds.map((id) => ({ id, accountId })));
  if (rows.length === 0) return;
  // An array per column (unnest): the same short statement for 1 invoice or a batch's 1,000, where
  // a VALUES list of eight values an invoice cost Postgres more to parse and plan than to insert.
  const schema = em.config.get('schema');
  await executeBound(
    em,
    `insert into ${schema ? `"${schema}".` : ''}"account_invoice"
       (id, organization_id, account_id, status, currency, balance, version, updated_at)
     select k.id, ?::uuid, k.account_id, ?, null, 0, 0, ?::timestamptz
       from unnest(?::uuid[], ?::uuid[]) as k(id, account_id)
     on conflict (id) do nothing`,
    [
      organizationId,
      ANNOUNCED_STATUS,
      now,
      pgArray(rows.map((row) => row.id)),
      pgArray(rows.map((row) => row.accountId)),
    ],
    { prepared: true },
  );
}

/** What the delete rule needs to know of an account's invoices. */
export interface AccountInvoices {
  /** Invoices whose state has arrived: the account has invoices. */
  known: number;
  /** Invoices only announced so far: they may or may not have been committed. */
  announced: string[];
}

export async function accountInvoices(
  em: EntityManager,
  organizationId: string,
  accountId: string,
): Promise<AccountInvoices> {
  const rows = await em.find(
    AccountInvoiceEntity,
    { organization_id: organizationId, account_id: accountId },
    { fields: ['id', 'status'], orderBy: { id: 'asc' } },
  );
  const announced = rows.filter((row) => row.status === ANNOUNCED_STATUS).map((row) => row.id);
  return { known: rows.length - announced.length, announced };
}

/** Forgets announcements invoicing confirmed were never committed (and never will be). */
export async function forgetAnnouncements(
  em: EntityManager,
  organizationId: string,
  accountId: string,
  invoiceIds: readonly string[],
): Promise<void> {
  if (invoiceIds.length === 0) return;
  await em.nativeDelete(AccountInvoiceEntity, {
    organization_id: organizationId,
    account_id: accountId,
    id: { $in: [...invoiceIds] },
    status: ANNOUNCED_STATUS,
  });
}

/**
 * The accounts the `balance` filter matches, as an account-id constraint. An account's balance is
 * the sum of its open documents' balances (credit notes' unused credit included), one sum per
 * currency: it matches a value other than 0 when one of its currencies sums to exactly that, and
 * 0 when no currency sums to anything else (accounts without invoices included). Paid and
 * credited documents have balance 0; announced ones are not open.
 */
export function balanceFilterConstraint(
  organizationId: string,
  /** Normalized by the domain's balanceFilterValue (zero is "0"). */
  balance: string,
): AccountIdConstraint {
  const zero = balance === '0';
  const accounts = raw(
    `select account_id from account_invoice
      where organization_id = ? and status = ?
      group by account_id, currency
     having sum(balance) ${zero ? '<>' : '='} cast(? as numeric)`,
    [organizationId, OPEN_STATUS, zero ? '0' : balance],
  );
  return zero ? { notIn: accounts } : { in: accounts };
}

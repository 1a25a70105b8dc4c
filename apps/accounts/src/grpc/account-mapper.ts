import type { Write } from '@billing/domain-kit';
import { type accountsV1, invoicingV1, paymentsV1, subscriptionsV1 } from '@billing/proto';
import type { AccountFieldName, AccountFields } from '../domain/account.js';
import type { AccountSummary } from '../domain/account-summary.js';
import type { AccountView, PaymentGatewayAccountView, RecipientView } from '../domain/account-view.js';
import type { RecipientFields } from '../domain/recipient.js';

/** proto optional fields are `undefined` when unset; the domain says null. */
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export function summaryMessage(summary: AccountSummary): accountsV1.AccountSummary {
  return {
    uuid: summary.uuid,
    code: summary.code,
    display_name: summary.display_name,
    type: summary.type,
    ...(summary.company_name !== null ? { company_name: summary.company_name } : {}),
    ...(summary.payment_terms !== null ? { payment_terms: summary.payment_terms } : {}),
  };
}

export function recipientMessage(view: RecipientView): accountsV1.Recipient {
  return { ...view };
}

export function paymentGatewayAccountMessage(view: PaymentGatewayAccountView): accountsV1.PaymentGatewayAccount {
  return { ...view };
}

export function accountMessage(view: AccountView): accountsV1.Account {
  const { read_model } = view;
  return {
    ...accountMessageWithoutSets(view),
    subscriptions: read_model.subscriptions.map((snapshot) => subscriptionsV1.Subscription.decode(snapshot)),
    draft_lines: read_model.draft_lines.map((snapshot) => invoicingV1.DraftLine.decode(snapshot)),
    payment_cards: read_model.payment_cards.map((snapshot) => paymentsV1.PaymentCard.decode(snapshot)),
  };
}

/** The account's message with its read model's sets (subscriptions, draft lines, cards) left empty. */
export function accountMessageWithoutSets(view: AccountView): accountsV1.Account {
  const { read_model: _readModel, ...fields } = view;
  return {
    ...fields,
    company_name: orUndefined(view.company_name),
    first_name: orUndefined(view.first_name),
    middle_name: orUndefined(view.middle_name),
    last_name: orUndefined(view.last_name),
    title: orUndefined(view.title),
    gender: orUndefined(view.gender),
    erp_id: orUndefined(view.erp_id),
    partner: orUndefined(view.partner),
    ean_number: orUndefined(view.ean_number),
    einvoicing_intermediator: orUndefined(view.einvoicing_intermediator),
    invoice_note: orUndefined(view.invoice_note),
    default_payment_terms: orUndefined(view.default_payment_terms),
    default_collection_method: orUndefined(view.default_collection_method),
    reseller: orUndefined(view.reseller),
    reseller_billing_frequency: orUndefined(view.reseller_billing_frequency),
    reseller_billing_grouping: orUndefined(view.reseller_billing_grouping),
    type: orUndefined(view.type),
    override_business_entity: orUndefined(view.override_business_entity),
    register_status: orUndefined(view.register_status),
    recipients: view.recipients.map(recipientMessage),
    payment_gateway_accounts: view.payment_gateway_accounts.map(paymentGatewayAccountMessage),
    subscriptions: [],
    draft_lines: [],
    payment_cards: [],
  };
}

/** A REST write arrives as the present field names plus the message; absent-but-present is null. */
export function accountWrite(
  input: accountsV1.AccountInput | undefined,
  presentFields: string[],
): Write<AccountFields> & { reseller_code?: string } {
  const message = (input ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = orNull(message[field]);
  const present = new Set(presentFields);
  const resellerCode = present.has('reseller_code') ? (message.reseller_code as string | undefined) : undefined;
  return {
    values: values as Write<AccountFields>['values'],
    present,
    ...(resellerCode !== undefined ? { reseller_code: resellerCode } : {}),
  };
}

export function recipientWrite(
  input: accountsV1.RecipientInput | undefined,
  presentFields: string[],
): Write<RecipientFields> {
  const message = (input ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = orNull(message[field]);
  return { values: values as Write<RecipientFields>['values'], present: new Set(presentFields) };
}

export type { AccountFieldName };

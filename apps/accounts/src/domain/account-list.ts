import { AppError } from '@billing/errors';
import { balanceFilterValue } from './invoice-state.js';
import { isPaymentMethod, type PaymentMethod } from './payment-means.js';

/** Filters of the account list, typed; unset means no filter. */
export interface AccountListFilter {
  uuid?: string;
  code?: string;
  type?: string;
  is_getting_reminders?: boolean;
  is_archived?: boolean;
  override_business_entity?: string;
  search?: string;
  legal_country?: string;
  ean_invoicing?: boolean;
  has_recipient_receiving_invoices?: boolean;
  /** No register is consulted, so every account's is null: the value `null` matches them all. */
  register_status?: string;
  created_date_lte?: Date;
  created_date_gte?: Date;
  last_modified_date_lte?: Date;
  last_modified_date_gte?: Date;
  subscription_status?: string;
  subscription_collection_method?: string;
  subscription_set_to_expire?: boolean;
  /** A decimal: the sum of the account's open invoice balances in one of its currencies. */
  balance?: string;
  active_payment_method?: string;
  reseller_program?: boolean;
  registered_for_direct_debit?: boolean;
}

/** Orderable fields of the account list (REST name → column); the default is oldest first. */
export const ACCOUNT_ORDERING: Readonly<Record<string, string>> = {
  code: 'code',
  company_name: 'company_name',
  legal_country: 'legal_country',
  created_date: 'created_at',
  last_modified_date: 'updated_at',
};

export const DEFAULT_ACCOUNT_ORDERING = 'created_date';

/** The value of `register_status` that asks for accounts without one (django-filter's null_value). */
export const NULL_FILTER_VALUE = 'null';

/** A filter whose values were checked: what the queries take. */
export type CheckedAccountListFilter = Omit<AccountListFilter, 'active_payment_method'> & {
  active_payment_method?: PaymentMethod;
};

/**
 * Checks the values the gateway checks too (a service takes no caller on trust: bad input is
 * INVALID_ARGUMENT naming the filter, in django-filter's words) and normalizes `balance` to an
 * exact decimal.
 */
export function checkAccountListFilter(filter: AccountListFilter): CheckedAccountListFilter {
  const { active_payment_method: method, balance, ...rest } = filter;
  const checked: CheckedAccountListFilter = rest;
  if (balance !== undefined) {
    const value = balanceFilterValue(balance);
    if (value === null) throw AppError.invalidField('balance', 'Enter a number.');
    checked.balance = value;
  }
  if (method !== undefined) {
    if (!isPaymentMethod(method)) {
      throw AppError.invalidField(
        'active_payment_method',
        `Select a valid choice. ${method} is not one of the available choices.`,
      );
    }
    checked.active_payment_method = method;
  }
  return checked;
}

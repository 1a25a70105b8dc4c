import { isUuid } from '@billing/domain-kit';
import type { FieldViolation } from '@billing/errors';
import { parseAmount } from '@billing/money';
import { type ImportRow, type ParsedRow, recordsFromRows } from './import-rows.js';
import { nameBasedUuid } from './uuid.js';

/**
 * The account types of an ERP chart of accounts (e-conomic's, in snake case): `profit_loss` and
 * `status` accounts carry postings; `total_from` and `sum_interval` sum the account numbers from
 * `totals_from` to `totals_to`; headings only structure the chart.
 */
export const ERP_ACCOUNT_TYPES = [
  'profit_loss',
  'status',
  'total_from',
  'sum_interval',
  'sum_alpha',
  'heading',
  'heading_start',
] as const;

/** The ERP account a budget is for (api-spec "ERP account budget", `erp_account`). */
export interface ErpAccount {
  uuid: string;
  name: string;
  display_name: string;
  account_number: number;
  vat_code: string;
  account_type: string;
  totals_from: number | null;
  totals_to: number | null;
}

/** One budget row: an amount budgeted for one ERP account over a period. */
export interface AccountBudgetFields {
  budget_id: string;
  erp_account: ErpAccount;
  /** YYYY-MM-DD. */
  start_date: string;
  end_date: string;
  /** Decimal strings with two decimals. */
  start_amount: string;
  calculated_amount: string;
}

export interface AccountBudgetView extends AccountBudgetFields {
  id: number;
}

/**
 * The columns of an import file: the representation's fields, the ERP account's dotted (as the
 * exports write nested objects). `erp_account.uuid`, `.display_name`, `.vat_code` and the totals
 * may be left out or empty.
 */
export const ACCOUNT_BUDGET_COLUMNS = [
  'budget_id',
  'erp_account.uuid',
  'erp_account.name',
  'erp_account.display_name',
  'erp_account.account_number',
  'erp_account.vat_code',
  'erp_account.account_type',
  'erp_account.totals_from',
  'erp_account.totals_to',
  'start_date',
  'end_date',
  'start_amount',
  'calculated_amount',
] as const;

export const ACCOUNT_BUDGET_REQUIRED_COLUMNS = [
  'budget_id',
  'erp_account.name',
  'erp_account.account_number',
  'erp_account.account_type',
  'start_date',
  'end_date',
  'start_amount',
  'calculated_amount',
] as const;

/** Namespace of the uuids given to ERP accounts an import names without one (RFC 9562 name-based). */
const ERP_ACCOUNT_NAMESPACE = '5d0c6a1e-8f1b-4e36-9b7a-2f6f3c1d9e42';

const TEXT_LIMITS: Readonly<Record<string, number>> = {
  budget_id: 128,
  'erp_account.name': 256,
  'erp_account.display_name': 256,
  'erp_account.vat_code': 32,
};

/** A budget row's identity: re-importing it updates it (and keeps its id) instead of adding one. */
export function budgetKey(budget: Pick<AccountBudgetFields, 'budget_id' | 'start_date' | 'erp_account'>): string {
  return JSON.stringify([budget.budget_id, budget.erp_account.account_number, budget.start_date]);
}

function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** An ERP account number: a positive whole number that fits the column (int32). */
function accountNumber(text: string): number | null {
  return /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/** A decimal of at most 18 digits before the point and 2 after, written with exactly two decimals. */
function amount(text: string): string | null {
  const value = parseAmount(text);
  if (!value || value.decimalPlaces() > 2 || value.abs().gte('1e18')) return null;
  return value.isZero() ? '0.00' : value.toFixed(2);
}

/**
 * One row of an import file as a budget, or what is wrong with it (each violation names its
 * column). `organizationId` names the uuid an ERP account without one gets: the same account
 * number gets the same uuid in every import of the organization.
 */
export function budgetFromRow(row: ImportRow, organizationId: string): ParsedRow<AccountBudgetFields> {
  const violations: FieldViolation[] = [];
  const value = (column: string) => (row[column] ?? '').trim();
  for (const column of ACCOUNT_BUDGET_REQUIRED_COLUMNS) {
    if (value(column) === '') violations.push({ field: column, description: 'This field is required.' });
  }
  for (const [column, limit] of Object.entries(TEXT_LIMITS)) {
    if ([...value(column)].length > limit) {
      violations.push({ field: column, description: `Ensure this field has no more than ${limit} characters.` });
    }
  }
  const number = accountNumber(value('erp_account.account_number'));
  if (value('erp_account.account_number') !== '' && number === null) {
    violations.push({ field: 'erp_account.account_number', description: 'Enter a whole number from 1 to 999999999.' });
  }
  const uuid = value('erp_account.uuid');
  if (uuid !== '' && !isUuid(uuid))
    violations.push({ field: 'erp_account.uuid', description: 'Must be a valid UUID.' });
  const type = value('erp_account.account_type');
  if (type !== '' && !(ERP_ACCOUNT_TYPES as readonly string[]).includes(type)) {
    violations.push({ field: 'erp_account.account_type', description: `"${type}" is not a valid choice.` });
  }
  const totals: Record<'totals_from' | 'totals_to', number | null> = { totals_from: null, totals_to: null };
  for (const part of ['totals_from', 'totals_to'] as const) {
    const text = value(`erp_account.${part}`);
    if (text === '') continue;
    totals[part] = accountNumber(text);
    if (totals[part] === null) {
      violations.push({ field: `erp_account.${part}`, description: 'Enter a whole number from 1 to 999999999.' });
    }
  }
  if (totals.totals_from !== null && totals.totals_to !== null && totals.totals_from > totals.totals_to) {
    violations.push({ field: 'erp_account.totals_to', description: 'Must not be less than totals_from.' });
  }
  for (const column of ['start_date', 'end_date']) {
    if (value(column) !== '' && !isDate(value(column))) {
      violations.push({
        field: column,
        description: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
      });
    }
  }
  if (isDate(value('start_date')) && isDate(value('end_date')) && value('end_date') < value('start_date')) {
    violations.push({ field: 'end_date', description: 'Must not be before start_date.' });
  }
  const amounts: Record<string, string | null> = {};
  for (const column of ['start_amount', 'calculated_amount']) {
    amounts[column] = amount(value(column));
    if (value(column) !== '' && amounts[column] === null) {
      violations.push({
        field: column,
        description: 'Enter a number with at most 18 digits before the decimal point and 2 after it.',
      });
    }
  }
  if (violations.length > 0 || number === null) return { record: null, violations };
  const name = value('erp_account.name');
  return {
    record: {
      budget_id: value('budget_id'),
      erp_account: {
        uuid: uuid !== '' ? uuid.toLowerCase() : nameBasedUuid(ERP_ACCOUNT_NAMESPACE, `${organizationId}/${number}`),
        name,
        display_name: value('erp_account.display_name') || `${number} ${name}`,
        account_number: number,
        vat_code: value('erp_account.vat_code'),
        account_type: type,
        ...totals,
      },
      start_date: value('start_date'),
      end_date: value('end_date'),
      start_amount: amounts.start_amount!,
      calculated_amount: amounts.calculated_amount!,
    },
    violations,
  };
}

/** Every row of a file as budgets, or every violation (see recordsFromRows). */
export function budgetsFromRows(rows: readonly ImportRow[], organizationId: string) {
  return recordsFromRows(
    rows,
    (row) => budgetFromRow(row, organizationId),
    budgetKey,
    (first) => `Repeats line ${first}: the same budget_id, erp_account.account_number and start_date.`,
  );
}

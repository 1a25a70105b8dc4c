import { pgArray, selectBound } from '@billing/db';
import { canonicalUuidOrText } from '@billing/domain-kit';
import { type CurrencyCode, Decimal, money } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActivityRecord } from '../domain/activity-ledger.js';
import type { ActivityView } from '../domain/activity-view.js';
import { type ActivityQueryRow, type EmbeddedPlanRow, viewOf } from './activity-queries.js';
import type { SqlStatement } from './sql-rows.js';

/**
 * What an activity's view joins to its row (activity-queries' VIEW_FROM) and the organization's base
 * currency, for activities a transaction has just written and still holds: activity.created is made
 * from them as findActivityView would show them, without reading them back.
 */
export interface ActivityNames {
  /** The organization's base currency; DKK for one not known, as readSettings reads it. */
  base: CurrencyCode;
  accounts: ReadonlyMap<string, { code: string; company_name: string; ean_invoicing: boolean }>;
  /** Plan terms' codes (an activity's old_terms_name / new_terms_name). */
  terms: ReadonlyMap<string, string>;
  plans: ReadonlyMap<string, NamedPlan>;
}

interface NamedPlan {
  organization_id: string;
  name: string;
  code: string | null;
  collect_vat: boolean;
  vat_type: string;
}

interface NameRow {
  kind: 'organization' | 'account' | 'terms' | 'plan';
  id: string;
  organization_id: string;
  code: string | null;
  name: string | null;
  flag: boolean | null;
  vat_type: string | null;
}

/** A uuid as Postgres stores and shows it, whatever form it came in: the name maps are keyed by that form. */
const uuidKey = canonicalUuidOrText;

/**
 * The names the activities' views join, in one statement: their accounts, the plan terms and plans
 * they name, and the organization's base currency. Each name is found by a lookup of its id (the
 * `offset 0` keeps the planner from turning a batch's keys into a scan of a whole table; see rowsPerKey).
 */
export async function findActivityNames(
  em: EntityManager,
  organizationId: string,
  records: readonly ActivityRecord[],
): Promise<ActivityNames> {
  const ids = (pick: (record: ActivityRecord) => ReadonlyArray<string | null>) => [
    ...new Set(records.flatMap((record) => pick(record).flatMap((id) => (id ? [uuidKey(id)] : [])))),
  ];
  const lookup = (keys: readonly string[], table: string, columns: string): SqlStatement | null =>
    keys.length === 0
      ? null
      : {
          sql: `select ${columns}
                from unnest(?::uuid[]) as k(id)
                cross join lateral (select * from ${table} as t where t.id = k.id offset 0) as t`,
          params: [pgArray(keys)],
        };
  const parts = [
    {
      sql: `select 'organization' as kind, o.id, o.id as organization_id, o.base_currency as code, null as name,
                   null::boolean as flag, null as vat_type
              from organization as o where o.id = ?`,
      params: [organizationId],
    },
    lookup(
      ids((record) => [record.account_id]),
      'account',
      `'account', t.id, t.organization_id, t.code, t.company_name, t.ean_invoicing, null`,
    ),
    lookup(
      ids((record) => [record.old_terms, record.new_terms]),
      'plan_terms',
      `'terms', t.id, t.organization_id, t.code, null, null, null`,
    ),
    lookup(
      ids((record) => [record.old_plan, record.new_plan]),
      'plan',
      `'plan', t.id, t.organization_id, t.code, t.name, t.collect_vat, t.vat_type`,
    ),
  ].filter((part): part is SqlStatement => part !== null);
  const rows = await selectBound<NameRow>(
    em,
    parts.map((part) => `(${part.sql})`).join(' union all '),
    parts.flatMap((part) => part.params),
  );
  const names = {
    base: 'DKK' as CurrencyCode,
    accounts: new Map<string, { code: string; company_name: string; ean_invoicing: boolean }>(),
    terms: new Map<string, string>(),
    plans: new Map<string, NamedPlan>(),
  };
  for (const row of rows) {
    if (row.kind === 'organization') names.base = row.code as CurrencyCode;
    else if (row.kind === 'account')
      names.accounts.set(row.id, { code: row.code!, company_name: row.name!, ean_invoicing: row.flag! });
    else if (row.kind === 'terms') names.terms.set(row.id, row.code!);
    else
      names.plans.set(row.id, {
        organization_id: row.organization_id,
        name: row.name!,
        code: row.code,
        collect_vat: row.flag!,
        vat_type: row.vat_type!,
      });
  }
  return names;
}

/** A decimal as a numeric column of that scale stores it: rounded half away from zero, as Postgres does. */
const stored = (value: string | null, scale: number): string | null =>
  value === null ? null : money(value).toDecimalPlaces(scale, Decimal.ROUND_HALF_UP).toFixed(scale);

const uuidOrNull = (id: string | null): string | null => (id === null ? null : uuidKey(id));

/**
 * An activity the transaction holds, as findActivityView shows it once written (the activity
 * table's types: uuids in Postgres' form, its numeric columns' scales), joined to `names` as
 * VIEW_FROM joins it; with the plans its activity.created embeds (those of its organization with a
 * code, as embeddedPlans finds them; none for an activity deleted or dropped).
 */
export function heldActivityView(
  record: ActivityRecord,
  names: ActivityNames,
): { view: ActivityView; plans: EmbeddedPlanRow[] } {
  const row: ActivityQueryRow = {
    id: uuidKey(record.id),
    account_id: uuidKey(record.account_id),
    subscription_id: uuidOrNull(record.subscription_id),
    invoice_id: uuidOrNull(record.invoice_id),
    date: record.date,
    created_date: record.created_date,
    updated_date: record.updated_date,
    type: record.type,
    is_manual: record.is_manual,
    is_churn: record.is_churn,
    deleted: record.deleted,
    dropped: record.dropped,
    old_currency: record.old_currency,
    new_currency: record.new_currency,
    old_mrr_in_subscription_currency: stored(record.old_mrr_in_subscription_currency, 20),
    new_mrr_in_subscription_currency: stored(record.new_mrr_in_subscription_currency, 20),
    old_mrr: stored(record.old_mrr, 2),
    new_mrr: stored(record.new_mrr, 2),
    mrr_change: stored(record.mrr_change, 2),
    old_quantity: record.old_quantity,
    new_quantity: record.new_quantity,
    old_terms: uuidOrNull(record.old_terms),
    new_terms: uuidOrNull(record.new_terms),
    old_plan: uuidOrNull(record.old_plan),
    new_plan: uuidOrNull(record.new_plan),
    account_code: '',
    company_name: '',
    ean_invoicing: false,
    old_terms_name: null,
    new_terms_name: null,
    old_plan_name: null,
    new_plan_name: null,
  };
  const account = names.accounts.get(row.account_id);
  if (account) {
    row.account_code = account.code;
    row.company_name = account.company_name;
    row.ean_invoicing = account.ean_invoicing;
  }
  row.old_terms_name = row.old_terms === null ? null : (names.terms.get(row.old_terms) ?? null);
  row.new_terms_name = row.new_terms === null ? null : (names.terms.get(row.new_terms) ?? null);
  row.old_plan_name = row.old_plan === null ? null : (names.plans.get(row.old_plan)?.name ?? null);
  row.new_plan_name = row.new_plan === null ? null : (names.plans.get(row.new_plan)?.name ?? null);
  const view = viewOf(row, names.base);
  const plans = view.deleted
    ? []
    : [row.old_plan, row.new_plan].flatMap((id) => {
        const plan = id === null ? undefined : names.plans.get(id);
        return id !== null && plan && plan.organization_id === uuidKey(record.organization_id) && plan.code !== null
          ? [{ id, name: plan.name, code: plan.code, collect_vat: plan.collect_vat, vat_type: plan.vat_type }]
          : [];
      });
  return { view, plans };
}

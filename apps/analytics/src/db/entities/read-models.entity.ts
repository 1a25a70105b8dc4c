import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** What analytics keeps of an organization (accounts' organization.* events). */
export const OrganizationEntity = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.uuid().primary(),
    base_currency: p.string().length(3),
    time_zone: p.string().length(64),
    /** [{currency, rate, valid_from}]: base currency per unit, from a local date on. */
    exchange_rates: p.json<Array<{ currency: string; rate: string; valid_from: string }>>(),
  },
});
export type OrganizationRow = InferEntity<typeof OrganizationEntity>;

/** What analytics keeps of an account (accounts' account.* events): joined into activities when read. */
export const AccountEntity = defineEntity({
  name: 'Account',
  tableName: 'account',
  indexes: [{ name: 'account_organization_code_idx', properties: ['organization_id', 'code'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    code: p.string().length(128),
    company_name: p.string().length(256),
    legal_country: p.string().length(2),
    /** Activities show it as ean_invoice. */
    ean_invoicing: p.boolean(),
  },
});
export type AccountRow = InferEntity<typeof AccountEntity>;

/**
 * A plan as activities show it (subscriptions' plan.* events): its name, and what the new_activity
 * event embeds (null for plans whose last event came before those columns were kept).
 */
export const PlanEntity = defineEntity({
  name: 'Plan',
  tableName: 'plan',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    name: p.string().length(256),
    code: p.string().length(256).nullable(),
    collect_vat: p.boolean().nullable(),
    vat_type: p.string().length(16).nullable(),
  },
});
export type PlanRow = InferEntity<typeof PlanEntity>;

/** Plan terms as analytics needs them (subscriptions' plan_terms.* and plan.* events). */
export const PlanTermsEntity = defineEntity({
  name: 'PlanTerms',
  tableName: 'plan_terms',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    plan_id: p.uuid(),
    code: p.string().length(256),
    currency: p.string().length(3),
    interval_type: p.string().length(8),
    interval_count: p.integer(),
    revenue_group: p.string().length(256).nullable(),
  },
});
export type PlanTermsRow = InferEntity<typeof PlanTermsEntity>;

/**
 * A churn reason's name (accounts' churn_reason.* events): churn account activities show it.
 * Deleted reasons keep their row, as subscriptions naming them keep showing them.
 */
export const ChurnReasonEntity = defineEntity({
  name: 'ChurnReason',
  tableName: 'churn_reason',
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    name: p.string().length(256),
  },
});
export type ChurnReasonRow = InferEntity<typeof ChurnReasonEntity>;

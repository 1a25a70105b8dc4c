/**
 * Vocabulary of the subscription contract tests (api-spec "Subscription" and "Subscriptions",
 * gaps.md §6, docs/api.md "Subscriptions"): paths, fixtures and the exact shapes the API returns.
 */
import type { chargesV1 } from '@billing/proto';
import { expect } from 'vitest';
import type { ApiClient, TestOrganization, TestPlatform } from '../support/platform.js';
import {
  accountPath,
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  newOrganization,
  SCHEMA_PATTERN,
  UUID_PATTERN,
  uniqueCode,
} from './helpers.js';

export const SUBSCRIPTIONS = '/api/v1/subscriptions/';
export const subscriptionPath = (uuid: string): string => `${SUBSCRIPTIONS}${uuid}/`;
export const subscribePath = (code: string): string => `${accountPath(code)}subscribe/`;
export const CHURN_REASONS = '/api/v1/churn-reasons/';

export const UNKNOWN_UUID = '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f';
export const invalidPk = (uuid: string) => `Invalid pk "${uuid}" - object does not exist.`;
export const noAccount = (code: string) => `Object with code=${code} does not exist.`;

/**
 * An organization on its own test clock starting at `time` (Europe/Copenhagen), with `advance`
 * (POST /test-clock/advance/, expecting 200) and `charges` (what invoicing receives, in order).
 */
export interface ClockOrganization extends TestOrganization {
  advance(to: string): Promise<void>;
  charges(): Promise<chargesV1.Charge[]>;
}

export async function clockOrganization(platform: TestPlatform, time: string): Promise<ClockOrganization> {
  const organization = await newOrganization(platform, { test_clock_time: time });
  const advance = async (to: string) => {
    const response = await organization.api.post('/api/v1/test-clock/advance/', { to });
    expectStatus(response, 200);
  };
  const charges = () => platform.charges(organization.organizationId);
  return { ...organization, advance, charges };
}

/** An account, a plan and its plan terms (monthly, forward-charging, 100.00 DKK unless overridden). */
export async function subscriptionFixture(api: ApiClient, options: { account?: Json; plan?: Json; terms?: Json } = {}) {
  const account = await createAccount(api, uniqueCode(), options.account ?? {});
  const plan = await createPlan(api, uniqueCode('plan'), options.plan ?? {});
  const terms = await createPlanTerms(api, plan.uuid, options.terms ?? {});
  return { account, plan, terms, code: account.code as string };
}

export type Fixture = Awaited<ReturnType<typeof subscriptionFixture>>;

/** The smallest valid create body: account code, terms and collection_method. */
export function subscriptionInput(fixture: Pick<Fixture, 'code' | 'terms'>, overrides: Json = {}): Json {
  return { account: fixture.code, terms: fixture.terms.uuid, collection_method: 'invoice', ...overrides };
}

export async function createSubscription(
  api: ApiClient,
  fixture: Pick<Fixture, 'code' | 'terms'>,
  overrides: Json = {},
) {
  const response = await api.post(SUBSCRIPTIONS, subscriptionInput(fixture, overrides));
  expectStatus(response, 201);
  return response.body;
}

export async function createChurnReason(api: ApiClient, name = 'Too expensive') {
  const response = await api.post(CHURN_REASONS, { name });
  expectStatus(response, 201);
  return response.body as { uuid: string; name: string; is_active: boolean };
}

/** The minimal embedded account (api-spec: uuid, display_name, company_name, code, type). */
export function embeddedAccount(account: Json): Json {
  const companyName = (account.company_name as string | null) ?? null;
  const person = [account.first_name, account.middle_name, account.last_name].filter((part) => part).join(' ');
  return {
    uuid: account.uuid,
    display_name: companyName ?? (person || account.code),
    company_name: companyName,
    code: account.code,
    type: account.type ?? (companyName ? 'company' : 'person'),
    model: 'account',
    schema: expect.stringMatching(SCHEMA_PATTERN),
  };
}

/** The embedded plan: uuid, name, code, collect_vat, vat_type (api-spec), no plan terms. */
export function embeddedPlan(plan: Json): Json {
  return {
    uuid: plan.uuid,
    name: plan.name,
    code: plan.code,
    collect_vat: plan.collect_vat,
    vat_type: plan.vat_type,
    model: 'plan',
    schema: expect.stringMatching(SCHEMA_PATTERN),
  };
}

export function embeddedChurnReason(reason: { uuid: string; name: string; is_active: boolean }): Json {
  return {
    uuid: reason.uuid,
    name: reason.name,
    is_active: reason.is_active,
    model: 'churn_reason',
    schema: expect.stringMatching(SCHEMA_PATTERN),
  };
}

/** Writable fields and their values on a subscription created without them (docs/api.md). */
export const SUBSCRIPTION_DEFAULTS: Json = {
  quantity: 1,
  group_on_invoice: false,
  is_auto_renew_enabled: true,
  payment_terms: null,
  pre_renewal_days_offset: 0,
  pre_renewal_invoicing: false,
  po_number: '',
  invoice_supplement: null,
  override_price: null,
  reference_person: '',
  account_reference_person: '',
  case_number: '',
  churn_reason: null,
  custom_churn_reason: null,
  custom_fields: {},
};

const ONE_MONTH_LATER: Record<string, string> = {
  '2026-01-15T09:00:00.000Z': '2026-02-15T09:00:00.000Z',
};

/** The renewal one month after `now`, written out: a `now` without its entry is a test to extend. */
function oneMonthLater(now: string): string {
  const later = ONE_MONTH_LATER[now];
  if (later === undefined) throw new Error(`expectedSubscription: add the date one month after ${now}`);
  return later;
}

/**
 * The whole subscription the API returns for a create at `now` (the platform clock) without
 * start_date on monthly forward terms: active from now, renewing one month later, MRR = price x
 * quantity. `overrides` replaces any field.
 */
export function expectedSubscription(fixture: Fixture, now: string, overrides: Json = {}): Json {
  const quantity = (overrides.quantity as number | undefined) ?? 1;
  const amount = `${(Number(fixture.terms.price) * quantity).toFixed(2)}`;
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    account: embeddedAccount(fixture.account),
    account_uuid: fixture.account.uuid,
    account_code: fixture.account.code,
    terms: fixture.terms,
    plan: embeddedPlan(fixture.plan),
    start_date: now,
    end_date: null,
    created_date: now,
    last_modified_date: now,
    next_renewal_date: oneMonthLater(now),
    last_renewal_date: now,
    base_renewal_date: now,
    original_start_date: now,
    collection_method: 'invoice',
    effective_payment_terms: '14',
    status: 'active',
    current_mrr: amount,
    committed_mrr: amount,
    final_price: amount,
    scheduled_changes: [],
    ...SUBSCRIPTION_DEFAULTS,
    model: 'subscription',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

/** GET a subscription list and return the uuids of its results, in response order. */
export async function listUuids(api: ApiClient, query: string): Promise<string[]> {
  const response = await api.get(`${SUBSCRIPTIONS}?${query}`);
  expectStatus(response, 200);
  return (response.body.results as Array<{ uuid: string }>).map((item) => item.uuid);
}

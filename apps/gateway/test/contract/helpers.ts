/**
 * Shared vocabulary of the HTTP contract tests: the platform lifecycle, request bodies and the
 * exact response shapes the REST contract (shared/spec/api-spec.md + gaps.md) promises.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiClient, ApiResponse, TestOrganization, TestPlatform } from '../support/platform.js';
import { startTestPlatform } from '../support/platform.js';

export type Json = Record<string, unknown>;

/** `<YYYY-MM-DD>-<name>` version tag every object carries. */
export const SCHEMA_PATTERN = /^\d{4}-\d{2}-\d{2}-[a-z_]+$/;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 date-time in UTC with a `Z` suffix. */
export const ISO_Z_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export const NOT_FOUND = { detail: 'Not found.' };
export const INVALID_TOKEN = { detail: 'Invalid token.' };
export const REQUIRED = 'This field is required.';

export const ACCOUNTS = '/api/v1/accounts/';
export const RECIPIENTS = '/api/v1/recipients/';
export const accountPath = (code: string): string => `${ACCOUNTS}${encodeURIComponent(code)}/`;
export const gatewaysPath = (code: string): string => `${accountPath(code)}payment-gateways/`;
export const recipientPath = (uuid: string): string => `${RECIPIENTS}${uuid}/`;

const EU_COUNTRIES = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '),
);

/**
 * Starts one platform for the calling test file (beforeAll) and stops it afterwards (afterAll).
 * Returns an accessor, because the platform exists only once beforeAll has run.
 */
export function usePlatform(options?: Parameters<typeof startTestPlatform>[0]): () => TestPlatform {
  let platform: TestPlatform | undefined;
  beforeAll(async () => {
    platform = await startTestPlatform(options);
  });
  afterAll(async () => {
    await platform?.stop();
  });
  return () => {
    if (!platform) throw new Error('test platform not started');
    return platform;
  };
}

/** A fresh organization with a rate limit high enough that tests never hit it by accident. */
export function newOrganization(
  platform: TestPlatform,
  settings: NonNullable<Parameters<TestPlatform['createOrganization']>[0]> = {},
): Promise<TestOrganization> {
  return platform.createOrganization({ rate_limit_per_minute: 10_000, ...settings });
}

export function uniqueCode(prefix = 'acc'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** The smallest valid account body: the fields required on create. */
export function accountInput(code: string, overrides: Json = {}): Json {
  return {
    code,
    legal_address: 'Vesterbrogade 1',
    legal_zipcode: '1620',
    legal_city: 'København V',
    legal_country: 'DK',
    ...overrides,
  };
}

/** Writable fields and their values on an account created without them. */
export const ACCOUNT_DEFAULTS: Json = {
  company_name: null,
  first_name: null,
  middle_name: null,
  last_name: null,
  title: null,
  gender: null,
  erp_id: null,
  partner: null,
  ean_invoicing: false,
  einvoicing_identifier_schema: '',
  ean_number: null,
  einvoicing_intermediator: null,
  invoice_note: null,
  language: 'en',
  legal_vat_number: '',
  billing_same_as_legal: true,
  billing_address: '',
  billing_zipcode: '',
  billing_city: '',
  billing_country: '',
  update_from_registers: false,
  default_payment_terms: null,
  default_collection_method: null,
  is_getting_reminders: true,
  reseller: null,
  reseller_code: '',
  reseller_billing_frequency: null,
  reseller_billing_grouping: null,
  type: null,
  custom_fields: {},
  override_business_entity: null,
};

function displayNameOf(fields: Json): string {
  if (fields.company_name) return String(fields.company_name);
  const person = [fields.first_name, fields.middle_name, fields.last_name].filter((part) => part).join(' ');
  return person || String(fields.code);
}

/**
 * The whole account the API must return for `input` (a create body), with the response-only fields
 * derived from it. `overrides` replaces any field (e.g. sets, reseller, exact timestamps).
 */
export function expectedAccount(input: Json, overrides: Json = {}): Json {
  const fields: Json = { ...ACCOUNT_DEFAULTS, ...input };
  const euVat =
    EU_COUNTRIES.has(String(fields.legal_country)) && fields.legal_vat_number ? 'unverified' : 'not_applicable';
  return {
    ...fields,
    uuid: expect.stringMatching(UUID_PATTERN),
    display_name: displayNameOf(fields),
    created_date: expect.stringMatching(ISO_Z_PATTERN),
    last_modified_date: expect.stringMatching(ISO_Z_PATTERN),
    eu_vat_status: euVat,
    register_status: null,
    industry: '',
    is_archived: false,
    payment_gateway_account_set: [],
    paymentcard_set: [],
    subscription_set: [],
    draftinvoiceline_set: [],
    recipient_set: [],
    model: 'account',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

/** Creates an account and fails the test unless the API answers 201. Returns the account. */
export async function createAccount(api: ApiClient, code: string = uniqueCode(), overrides: Json = {}) {
  const response = await api.post(ACCOUNTS, accountInput(code, overrides));
  expectStatus(response, 201);
  return response.body;
}

export function recipientInput(accountUuid: string, overrides: Json = {}): Json {
  return {
    account: accountUuid,
    name: 'Jane Doe',
    email: `jane.${randomUUID().slice(0, 8)}@example.com`,
    receive_invoice: true,
    receive_payment_confirmation: false,
    receive_subscription_notifications: true,
    ...overrides,
  };
}

/** The whole recipient the API must return for `input` on `account`. */
export function expectedRecipient(input: Json, account: { uuid: string; code: string }, overrides: Json = {}): Json {
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    account: account.uuid,
    account_code: account.code,
    name: input.name,
    email: input.email,
    receive_invoice: input.receive_invoice ?? false,
    receive_payment_confirmation: input.receive_payment_confirmation ?? false,
    receive_payment_card_notifications: input.receive_payment_card_notifications ?? false,
    receive_subscription_notifications: input.receive_subscription_notifications ?? false,
    // gaps.md §11: the organization's self_service feature is on by default.
    has_access_to_self_service: true,
    model: 'recipient',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

export async function createRecipient(api: ApiClient, accountUuid: string, overrides: Json = {}) {
  const response = await api.post(RECIPIENTS, recipientInput(accountUuid, overrides));
  expectStatus(response, 201);
  return response.body;
}

/** One payment gateway account as listed on /payment-gateways/ (uuid is optional there). */
export function expectedGatewayAccount(gateway: string, id: string): Json {
  return {
    payment_gateway: gateway,
    payment_gateway_account_id: id,
    model: 'payment_gateway_account',
    schema: expect.stringMatching(SCHEMA_PATTERN),
  };
}

/** Drops `uuid` from payment gateway accounts after checking it is a uuid wherever it is present. */
export function withoutUuid(items: Json[]): Json[] {
  return items.map(({ uuid, ...rest }) => {
    if (uuid !== undefined) expect(uuid).toMatch(UUID_PATTERN);
    return rest;
  });
}

/** Asserts a status and shows the body when it differs, which makes failures readable. */
export function expectStatus(response: ApiResponse, status: number): void {
  if (response.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${response.status}: ${response.text.slice(0, 2000)}`);
  }
}

/** GET a list and return the codes of its results (in response order). */
export async function listCodes(api: ApiClient, query: string): Promise<string[]> {
  const response = await api.get(`${ACCOUNTS}?${query}`);
  expectStatus(response, 200);
  return (response.body.results as Array<{ code: string }>).map((account) => account.code);
}

/** Turns an absolute `next`/`previous` URL into a path the ApiClient accepts. */
export function pathOf(absoluteUrl: string): string {
  const url = new URL(absoluteUrl);
  return `${url.pathname}${url.search}`;
}

export function sortBy<T extends Json>(items: T[], key: string): T[] {
  return [...items].sort((a, b) => String(a[key]).localeCompare(String(b[key])));
}

export const PLANS = '/api/v1/plans/';
export const PLANTERMS = '/api/v1/planterms/';
export const planPath = (uuid: string): string => `${PLANS}${uuid}/`;
export const planTermsPath = (uuid: string): string => `${PLANTERMS}${uuid}/`;

/** A valid plan create body. */
export function planInput(code: string = uniqueCode('plan'), overrides: Json = {}): Json {
  return { name: 'Pro', code, collect_vat: true, vat_type: 'services', ...overrides };
}

/** The whole plan the API must return for `input` (a create body). */
export function expectedPlan(input: Json, overrides: Json = {}): Json {
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    name: input.name,
    code: input.code,
    description: input.description ?? '',
    collect_vat: input.collect_vat,
    vat_type: input.vat_type,
    planterms_set: [],
    model: 'plan',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

export async function createPlan(api: ApiClient, code: string = uniqueCode('plan'), overrides: Json = {}) {
  const response = await api.post(PLANS, planInput(code, overrides));
  expectStatus(response, 201);
  return response.body;
}

/** A valid plan terms create body for `planUuid`: monthly, forward-charging, 100.00 DKK. */
export function planTermsInput(planUuid: string, overrides: Json = {}): Json {
  return {
    plan: planUuid,
    code: uniqueCode('terms'),
    interval_type: 'month',
    interval_count: 1,
    price: '100.00',
    currency: 'DKK',
    backwards_charging: false,
    ...overrides,
  };
}

/** The plan terms the API must return for `input`; `price` as the API normalises it. */
export function expectedPlanTerms(input: Json, overrides: Json = {}): Json {
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    plan: input.plan,
    code: input.code,
    interval_type: input.interval_type,
    interval_count: input.interval_count,
    price: input.price,
    currency: input.currency,
    backwards_charging: input.backwards_charging,
    active: true,
    revenue_group: input.revenue_group ?? null,
    model: 'planterms',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

export async function createPlanTerms(api: ApiClient, planUuid: string, overrides: Json = {}) {
  const response = await api.post(PLANTERMS, planTermsInput(planUuid, overrides));
  expectStatus(response, 201);
  return response.body;
}

/** Contracts of an account and their tiers (gaps.md §5). */
export const contractsPath = (code: string): string => `${accountPath(code)}contracts/`;
export const contractPath = (code: string, uuid: string): string => `${contractsPath(code)}${uuid}/`;
export const tiersPath = (code: string, uuid: string): string => `${contractPath(code, uuid)}tiers/`;
export const tierPath = (code: string, uuid: string, id: string): string => `${tiersPath(code, uuid)}${id}/`;

/** An account and plan terms to make contracts with. */
export async function contractFixture(api: ApiClient) {
  const account = await createAccount(api);
  const plan = await createPlan(api);
  const terms = await createPlanTerms(api, plan.uuid);
  return { account, plan, terms, code: account.code as string };
}

export function contractInput(termsUuid: string, overrides: Json = {}): Json {
  return { plan_terms: termsUuid, start_date: '2026-01-01', end_date: '2026-12-31', ...overrides };
}

/** The whole contract the API must return for `input` (a create body) on `account`. */
export function expectedContract(input: Json, account: { uuid: string; code: string }, overrides: Json = {}): Json {
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    account: account.uuid,
    account_code: account.code,
    plan_terms: input.plan_terms,
    start_date: input.start_date,
    end_date: input.end_date ?? null,
    commitment_length: input.commitment_length ?? 0,
    exclusive_tiers: input.exclusive_tiers ?? true,
    tiers: [],
    model: 'contract',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

export async function createContract(api: ApiClient, code: string, termsUuid: string, overrides: Json = {}) {
  const response = await api.post(contractsPath(code), contractInput(termsUuid, overrides));
  expectStatus(response, 201);
  return response.body;
}

export function tierInput(overrides: Json = {}): Json {
  return { minimum_quantity: 5, discount: '10.00', discount_type: 'percentage', ...overrides };
}

export function expectedTier(input: Json, overrides: Json = {}): Json {
  return {
    id: expect.stringMatching(UUID_PATTERN),
    minimum_quantity: input.minimum_quantity,
    maximum_quantity: input.maximum_quantity ?? null,
    discount: input.discount,
    discount_type: input.discount_type,
    model: 'contract_tier',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

export async function createTier(api: ApiClient, code: string, contractUuid: string, overrides: Json = {}) {
  const response = await api.post(tiersPath(code, contractUuid), tierInput(overrides));
  expectStatus(response, 201);
  return response.body;
}

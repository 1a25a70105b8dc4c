/** Closed value sets of the REST contract, shared by the gateway (validation) and the services. */
export const LANGUAGES = ['en', 'da', 'nl', 'fi', 'de', 'nb', 'pl', 'pt', 'es', 'se'] as const;
export const COLLECTION_METHODS = ['payment_card', 'invoice', 'direct_debit'] as const;
export const PAYMENT_GATEWAYS = ['cardgw_a', 'cardgw_a_new', 'noop', 'cardgw_b', 'cardgw_c', 'cardgw_c_easy'] as const;
export const ACCOUNT_TYPES = ['company', 'person'] as const;
export const TITLES = ['mr', 'mrs', 'ms'] as const;
export const GENDERS = ['male', 'female', 'other'] as const;
export const EINVOICING_IDENTIFIER_SCHEMAS = ['GLN', 'ORGNR', 'ISO_6523_ICD'] as const;
export const RESELLER_BILLING_FREQUENCIES = [
  'daily',
  'end_of_month',
  'start_of_month',
  'end_of_week',
  'start_of_week',
  'start_and_end_of_month',
] as const;
export const RESELLER_BILLING_GROUPINGS = [
  'currency',
  'currency_resold_account',
  'currency_resold_account_po_number',
] as const;

export type CollectionMethod = (typeof COLLECTION_METHODS)[number];
export type PaymentGateway = (typeof PAYMENT_GATEWAYS)[number];

/** Plans and plan terms (gaps.md §5). */
export const VAT_TYPES = ['physical', 'services', 'unknown'] as const;
export const INTERVAL_TYPES = ['day', 'week', 'month', 'year'] as const;
/** gaps.md §6: a subscription's statuses, how an update's change takes effect, how it is cancelled. */
export const SUBSCRIPTION_STATUSES = [
  'scheduled',
  'active',
  'not_renewing',
  'pending_manual_renewal',
  'expired',
] as const;
export const CHANGE_TYPES = ['immediate', 'at_specified_time', 'at_renewal'] as const;
export const CANCELLATION_TYPES = [
  'full_refund',
  'at_renewal',
  'today',
  'at_specified_time',
  'cancel_invalid',
] as const;

export type VatType = (typeof VAT_TYPES)[number];
export type IntervalType = (typeof INTERVAL_TYPES)[number];
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type CancellationType = (typeof CANCELLATION_TYPES)[number];

/**
 * gaps.md §10/§11: an organization's feature flags. An organization stores the names of those that
 * are on; a new one has `self_service` on and `kickback` off.
 */
export const ORGANIZATION_FEATURES = ['kickback', 'self_service'] as const;
export type OrganizationFeature = (typeof ORGANIZATION_FEATURES)[number];
export const DEFAULT_ORGANIZATION_FEATURES: readonly OrganizationFeature[] = ['self_service'];
export const isOrganizationFeature = (name: string): name is OrganizationFeature =>
  (ORGANIZATION_FEATURES as readonly string[]).includes(name);

/** api-spec Activity `type` (gaps.md §8: what each one records). */
export const ACTIVITY_TYPES = [
  'new',
  'reactivate',
  'renew',
  'cancel',
  'upgrade_qty',
  'downgrade_qty',
  'upgrade_subscription',
  'downgraded_subscription',
  'modified',
  'invoice_sent',
  'invoice_paid',
  'payment_made',
  'currency_exchange',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** api-spec Account activity `type`. */
export const ACCOUNT_ACTIVITY_TYPES = ['new_business', 'expansion', 'contraction', 'churn', 'reactivation'] as const;
export type AccountActivityType = (typeof ACCOUNT_ACTIVITY_TYPES)[number];

/**
 * The request body each operation's documentation shows (the console's "Try it out" starts from
 * it), by operationId: realistic values taken from what each field means (a plan "Pro", the
 * account "acme", real country and currency codes, money as decimal strings), valid against the
 * same zod schemas that check requests. Objects an example refers to by uuid carry the ids below;
 * a user replaces them with their own (the tests with the objects they made first).
 */

/** The example uuid of each object the examples refer to. */
export const EXAMPLE_IDS = {
  account: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  plan: '5f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  planTerms: '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  invoice: '9b8a7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  subscription: '3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d',
} as const;

const ACME = {
  code: 'acme',
  company_name: 'Acme ApS',
  type: 'company',
  legal_address: 'Vesterbrogade 1',
  legal_zipcode: '1620',
  legal_city: 'København V',
  legal_country: 'DK',
  legal_vat_number: 'DK12345678',
  language: 'da',
  billing_same_as_legal: true,
  default_payment_terms: 14,
  default_collection_method: 'invoice',
  invoice_note: 'Please quote our PO number on every invoice.',
};

const ADA = {
  account: EXAMPLE_IDS.account,
  name: 'Ada Lovelace',
  email: 'ada@acme.example',
  receive_invoice: true,
  receive_payment_confirmation: true,
  receive_payment_card_notifications: false,
  receive_subscription_notifications: true,
};

const PRO = {
  name: 'Pro',
  code: 'pro',
  description: 'Everything in Basic, plus priority support.',
  collect_vat: true,
  vat_type: 'services',
};

const ONE_YEAR_CONTRACT = {
  plan_terms: EXAMPLE_IDS.planTerms,
  start_date: '2026-02-01',
  end_date: '2027-01-31',
  commitment_length: 12,
  exclusive_tiers: false,
};

const VOLUME_TIER = { minimum_quantity: 10, maximum_quantity: 49, discount: '10.00', discount_type: 'percentage' };

const WORKSHOP_LINE = {
  account: 'acme',
  description: 'Onboarding workshop',
  vat_type: 'services',
  collect_vat: true,
  date_from: '2026-02-02',
  date_to: '2026-02-02',
  price: '1200.00',
  quantity: '4',
  currency: 'DKK',
  include_in_next_renewal_invoice: false,
  po_number: 'PO-2026-0042',
};

/** A manual activity: the subscription's MRR from 1 February, in the terms' currency. */
const MANUAL_ACTIVITY = {
  subscription: EXAMPLE_IDS.subscription,
  date: '2026-02-01T00:00:00Z',
  quantity: 5,
  terms: EXAMPLE_IDS.planTerms,
  mrr: '500.00',
};

const MANUAL_ACCOUNT_ACTIVITY = {
  account_uuid: EXAMPLE_IDS.account,
  account_code: 'acme',
  company_name: 'Acme ApS',
  type: 'expansion',
  old_mrr: '500.00',
  new_mrr: '800.00',
  date: '2026-02-01T00:00:00Z',
  subscription: null,
  churn_reason: '',
  account_first_subscription_start_date: '2026-01-15T09:00:00Z',
};

export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  createAccount: ACME,
  replaceAccount: { ...ACME, legal_address: 'Vesterbrogade 2' },
  updateAccount: { default_payment_terms: 30 },
  setPaymentGatewayAccounts: [{ payment_gateway: 'cardgw_a', payment_gateway_account_id: 'cus_Q4x8Lm2Nz7' }],

  createRecipient: ADA,
  replaceRecipient: { ...ADA, email: 'ada.lovelace@acme.example' },
  updateRecipient: { receive_payment_confirmation: false },

  createPaymentCard: { account: EXAMPLE_IDS.account, token: 'noop_visa', gateway: 'noop' },
  initiateSelfService: { email: 'ada@acme.example' },

  createPlan: PRO,
  replacePlan: { ...PRO, description: 'Everything in Basic, plus priority support and SSO.' },
  updatePlan: { description: 'Everything in Basic, plus priority support and SSO.' },
  createPlanTerms: {
    plan: EXAMPLE_IDS.plan,
    code: 'pro-monthly',
    interval_type: 'month',
    interval_count: 1,
    price: '100.00',
    currency: 'DKK',
    backwards_charging: false,
  },
  updatePlanTerms: { price: '120.00' },
  calculatePlanPrice: { terms: EXAMPLE_IDS.planTerms, quantity: 5, account_code: 'acme' },

  createContract: ONE_YEAR_CONTRACT,
  replaceContract: { ...ONE_YEAR_CONTRACT, end_date: '2027-07-31', commitment_length: 18 },
  updateContract: { end_date: '2027-07-31' },
  createContractTier: VOLUME_TIER,
  replaceContractTier: { ...VOLUME_TIER, maximum_quantity: 99, discount: '12.50' },
  updateContractTier: { discount: '15.00' },

  createChurnReason: { name: 'Too expensive', is_active: true },
  replaceChurnReason: { name: 'Price too high', is_active: true },
  updateChurnReason: { is_active: false },

  advanceTestClock: { to: '2026-02-15T09:00:00Z' },

  createWebhook: {
    endpoint: 'https://hooks.example.com/billing',
    basic_auth_username: 'billing',
    basic_auth_password: 'correct horse battery staple',
    events: ['new_invoice', 'paid_invoice'],
  },
  replaceWebhook: { endpoint: 'https://hooks.example.com/billing', enabled: true, events: ['account.created'] },
  updateWebhook: { enabled: false },

  createSubscription: {
    account: 'acme',
    terms: EXAMPLE_IDS.planTerms,
    quantity: 5,
    collection_method: 'invoice',
    po_number: 'PO-2026-0042',
    reference_person: 'Ada Lovelace',
  },
  subscribeAccount: { terms: EXAMPLE_IDS.planTerms, quantity: 5, collection_method: 'invoice' },
  replaceSubscription: { terms: EXAMPLE_IDS.planTerms, quantity: 8, change_type: 'at_renewal' },
  updateSubscription: { quantity: 8, change_type: 'at_renewal' },
  cancelSubscription: { cancellation_type: 'at_renewal' },

  updateInvoiceKickbackStatus: { kickback_status: 'commission_pending' },
  registerInvoicePayment: { registration_date: '2026-01-20' },
  changeInvoiceCollectionMethod: { collection_method: 'direct_debit' },
  applyCreditNote: { target_invoice: EXAMPLE_IDS.invoice, amount: '125.00' },

  createDraftInvoiceLine: WORKSHOP_LINE,
  replaceDraftInvoiceLine: { ...WORKSHOP_LINE, quantity: '5' },
  updateDraftInvoiceLine: { quantity: '5', discount_percentage: '10' },
  generateAccountInvoice: { collection_method: 'invoice', payment_terms: 14 },

  exportInvoices: { status: 'open', date__gte: '2026-01-01', ordering: '-invoice_number' },
  exportInvoiceVat: { export_countries: 'eu_countries', export_granularity: 'account' },
  exportAccounts: { legal_country: 'DK', is_archived: false, ordering: 'code' },
  exportSubscriptions: { status: 'active', account: 'acme', ordering: '-start_date' },
  exportActivities: { type: 'new,upgrade_qty', mrr_change_type: 'increase', ordering: 'date' },
  exportAccountActivities: { type: 'churn', date__gte: '2026-01-01', ordering: '-date' },

  createActivity: MANUAL_ACTIVITY,
  replaceActivity: { ...MANUAL_ACTIVITY, mrr: '600.00' },
  updateActivity: { mrr: '600.00' },
  createAccountActivity: MANUAL_ACCOUNT_ACTIVITY,
  replaceAccountActivity: { ...MANUAL_ACCOUNT_ACTIVITY, new_mrr: '900.00' },
  updateAccountActivity: { new_mrr: '900.00' },
};

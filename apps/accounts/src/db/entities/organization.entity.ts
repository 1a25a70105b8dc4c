import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { ExchangeRate } from '../../domain/exchange-rate.js';

export const OrganizationEntity = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(256),
    country: p.string().length(2),
    base_currency: p.string().length(3),
    time_zone: p.string().length(64),
    default_payment_terms: p.integer(),
    default_collection_method: p.string().length(32),
    rate_limit_per_minute: p.integer(),
    /** The names of the feature flags that are on (ORGANIZATION_FEATURES). */
    features: p.json<string[]>(),
    /** The seller's details printed on invoices ('' when not given). */
    address: p.string().length(256).default(''),
    zipcode: p.string().length(32).default(''),
    city: p.string().length(128).default(''),
    vat_number: p.string().length(32).default(''),
    /** Printed on invoices and the Reply-To of invoice e-mails ('' when not given). */
    email: p.string().length(254).default(''),
    /** Days after the first card payment attempt on which declined payments are retried (gaps.md §11). */
    dunning_schedule_days: p.json<number[]>().default('[1,3,7]'),
    /** Days after the due date on which an open invoice's payment reminder is mailed (docs/api.md). */
    reminder_schedule_days: p.json<number[]>().default('[3,10,20]'),
    /** The fee per reminder, a draft line on the account ('' for none). */
    reminder_fee: p.string().length(32).default(''),
    created_at: p.datetime(),
    /** Test mode: the organization's own clock. Null for an organization on the real clock. */
    test_clock_time: p.datetime().nullable(),
    /** Exchange rates to the base currency, by currency then valid_from (set-exchange-rate). */
    exchange_rates: p.json<ExchangeRate[]>().default('[]'),
  },
});

export type OrganizationRow = InferEntity<typeof OrganizationEntity>;

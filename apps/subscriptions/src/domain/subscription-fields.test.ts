import { describe, expect, it } from 'vitest';
import {
  MAX_BACKDATED_PERIODS,
  SUBSCRIPTION_SHAPE,
  type SubscriptionFields,
  startDateViolations,
  subscriptionViolations,
} from './subscription-fields.js';

const valid: SubscriptionFields = {
  ...(SUBSCRIPTION_SHAPE.defaults as SubscriptionFields),
  terms: '6f1d2c4e-0d7a-4a52-9a57-2f0b8a0c5d11',
  collection_method: 'invoice',
};

describe('the writable fields of a subscription', () => {
  it('accepts the defaults with terms and a collection method', () => {
    expect(subscriptionViolations(valid, false)).toEqual([]);
    expect(subscriptionViolations({ ...valid, override_price: '0.000001', quantity: 0 }, false)).toEqual([]);
  });

  it('names every field out of its range, length or choices', () => {
    expect(
      subscriptionViolations(
        {
          ...valid,
          quantity: -1,
          payment_terms: 2_147_483_648,
          po_number: 'x'.repeat(129),
          custom_churn_reason: 'y'.repeat(101),
          collection_method: 'cash',
          override_price: '-0.01',
        },
        false,
      ),
    ).toEqual([
      { field: 'quantity', description: 'Ensure this value is greater than or equal to 0.' },
      { field: 'payment_terms', description: 'Ensure this value is less than or equal to 2147483647.' },
      { field: 'po_number', description: 'Ensure this field has no more than 128 characters.' },
      { field: 'custom_churn_reason', description: 'Ensure this field has no more than 100 characters.' },
      { field: 'collection_method', description: '"cash" is not a valid choice.' },
      { field: 'override_price', description: 'Ensure this value is greater than or equal to 0.' },
    ]);
    expect(subscriptionViolations({ ...valid, override_price: '1e3' }, false)).toEqual([
      { field: 'override_price', description: 'A valid number is required.' },
    ]);
  });

  it('refuses invoicing before the renewal date on backwards-charging terms', () => {
    expect(subscriptionViolations({ ...valid, pre_renewal_days_offset: 3 }, false)).toEqual([]);
    expect(subscriptionViolations({ ...valid, pre_renewal_days_offset: 3 }, true)).toEqual([
      {
        field: 'pre_renewal_days_offset',
        description: 'Only forward-charging plan terms can be invoiced before the renewal date.',
      },
    ]);
  });
});

const NOW = new Date('2026-01-15T09:00:00.000Z');
const TOO_FAR = [
  {
    field: 'start_date',
    description: `Ensure this date is no more than ${MAX_BACKDATED_PERIODS} billing periods of the plan terms before now.`,
  },
];
const monthly = { type: 'month' as const, count: 1 };
const daily = { type: 'day' as const, count: 1 };

describe('startDateViolations (backdating is bounded in billing periods)', () => {
  it('takes no start, a start now or later, and one exactly 36 periods back', () => {
    expect(MAX_BACKDATED_PERIODS).toBe(36);
    expect(startDateViolations(null, NOW, monthly, 'Europe/Copenhagen')).toEqual([]);
    expect(startDateViolations(NOW, NOW, monthly, 'Europe/Copenhagen')).toEqual([]);
    expect(startDateViolations(new Date('9999-12-31T23:59:59Z'), NOW, daily, 'UTC')).toEqual([]);
    // 36 months before 2026-01-15 10:00 Copenhagen time is 2023-01-15 10:00 (09:00Z, winter time).
    expect(startDateViolations(new Date('2023-01-15T09:00:00.000Z'), NOW, monthly, 'Europe/Copenhagen')).toEqual([]);
    expect(startDateViolations(new Date('2025-12-10T09:00:00.000Z'), NOW, daily, 'UTC')).toEqual([]);
  });

  it('refuses a start more than 36 periods back', () => {
    expect(startDateViolations(new Date('2023-01-15T08:59:59.999Z'), NOW, monthly, 'Europe/Copenhagen')).toEqual(
      TOO_FAR,
    );
    expect(startDateViolations(new Date('2025-12-10T08:59:59.999Z'), NOW, daily, 'UTC')).toEqual(TOO_FAR);
    expect(startDateViolations(new Date('0001-01-01T00:00:00.000Z'), NOW, { type: 'year', count: 1 }, 'UTC')).toEqual(
      TOO_FAR,
    );
  });
});

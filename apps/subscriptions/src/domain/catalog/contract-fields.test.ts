import { describe, expect, it } from 'vitest';
import {
  type ContractFields,
  contractViolations,
  END_BEFORE_START,
  MAXIMUM_BELOW_MINIMUM,
  PERCENTAGE_OVER_100,
  type TierFields,
  tierViolations,
} from './contract-fields.js';

const contract = (overrides: Partial<ContractFields> = {}): ContractFields => ({
  plan_terms: '00000000-0000-4000-8000-000000000001',
  start_date: '2026-01-15',
  end_date: null,
  commitment_length: 0,
  exclusive_tiers: true,
  ...overrides,
});

const tier = (overrides: Partial<TierFields> = {}): TierFields => ({
  minimum_quantity: 5,
  maximum_quantity: null,
  discount: '10',
  discount_type: 'percentage',
  ...overrides,
});

describe('contractViolations', () => {
  it.each([null, '2026-01-15', '2026-01-16', '2027-01-01'])('accepts end_date %j', (end_date) => {
    expect(contractViolations(contract({ end_date }))).toEqual([]);
  });

  it.each(['2026-01-14', '2025-12-31'])('refuses end_date %j before start_date', (end_date) => {
    expect(contractViolations(contract({ end_date }))).toEqual([{ field: 'end_date', description: END_BEFORE_START }]);
  });
});

describe('tierViolations', () => {
  it.each([
    [{}],
    [{ maximum_quantity: 5 }],
    [{ maximum_quantity: 9 }],
    [{ discount: '100' }],
    [{ discount: '100.000000' }],
    [{ discount: '150', discount_type: 'fixed' as const }],
  ])('accepts %j', (overrides) => {
    expect(tierViolations(tier(overrides))).toEqual([]);
  });

  it('refuses a maximum below the minimum', () => {
    expect(tierViolations(tier({ maximum_quantity: 4 }))).toEqual([
      { field: 'maximum_quantity', description: MAXIMUM_BELOW_MINIMUM },
    ]);
  });

  it('refuses a percentage over 100, and names both problems at once', () => {
    expect(tierViolations(tier({ discount: '100.01', maximum_quantity: 1 }))).toEqual([
      { field: 'maximum_quantity', description: MAXIMUM_BELOW_MINIMUM },
      { field: 'discount', description: PERCENTAGE_OVER_100 },
    ]);
  });
});

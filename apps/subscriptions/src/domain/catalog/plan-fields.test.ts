import { describe, expect, it } from 'vitest';
import { FIXED_AFTER_CREATION, fixedFieldViolations, PLAN_TERMS_MUTABLE } from './plan-fields.js';

describe('plan terms fields', () => {
  it('refuses, one violation each, the sent fields that cannot change after creation', () => {
    const sent = new Set([
      'code',
      'currency',
      'price',
      'interval_type',
      'plan',
      'backwards_charging',
      'interval_count',
    ]);
    expect(fixedFieldViolations(sent)).toEqual(
      ['plan', 'interval_type', 'interval_count', 'currency', 'backwards_charging'].map((field) => ({
        field,
        description: FIXED_AFTER_CREATION,
      })),
    );
  });

  it('lets a PATCH change only active, code, price and revenue_group', () => {
    expect(fixedFieldViolations(new Set(['active', 'code', 'price', 'revenue_group']))).toEqual([]);
    expect([...PLAN_TERMS_MUTABLE].sort()).toEqual(['active', 'code', 'price', 'revenue_group']);
  });
});

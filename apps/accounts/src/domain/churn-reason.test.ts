import { applyWrite } from '@billing/domain-kit';
import { describe, expect, it } from 'vitest';
import { CHURN_REASON_SHAPE, type ChurnReasonView, inRequestOrder, normaliseChurnReason } from './churn-reason.js';

const A = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const B = '7b7e1c2a-0e0f-4d8c-8c3e-2f9a6b1d4e57';
const reason = (uuid: string, name: string): ChurnReasonView => ({ uuid, name, is_active: true, deleted: false });

describe('churn reason writes', () => {
  it('a new reason needs a name and is active unless told otherwise', () => {
    expect(
      applyWrite(CHURN_REASON_SHAPE, null, { values: { name: 'Too expensive' }, present: new Set(['name']) }, 'create'),
    ).toEqual({
      fields: { name: 'Too expensive', is_active: true },
      violations: [],
    });
    expect(applyWrite(CHURN_REASON_SHAPE, null, { values: {}, present: new Set() }, 'create').violations).toEqual([
      { field: 'name', description: 'This field is required.' },
    ]);
  });

  it('trims the name and refuses a blank one or one over 100 characters', () => {
    expect(normaliseChurnReason({ name: '  Moved on ', is_active: false })).toEqual({
      fields: { name: 'Moved on', is_active: false },
      violations: [],
    });
    expect(normaliseChurnReason({ name: '   ', is_active: true }).violations).toEqual([
      { field: 'name', description: 'This field may not be blank.' },
    ]);
    expect(normaliseChurnReason({ name: 'x'.repeat(100), is_active: true }).violations).toEqual([]);
    expect(normaliseChurnReason({ name: 'x'.repeat(101), is_active: true }).violations).toEqual([
      { field: 'name', description: 'Ensure this field has no more than 100 characters.' },
    ]);
  });
});

describe('looking reasons up by uuid', () => {
  it('answers in the order asked, once per reason, leaving out the unknown', () => {
    const found = [reason(A, 'Price'), reason(B, 'Features')];
    expect(inRequestOrder([B, 'nope', A.toUpperCase(), B], found)).toEqual([reason(B, 'Features'), reason(A, 'Price')]);
  });
});

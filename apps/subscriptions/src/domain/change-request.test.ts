import { describe, expect, it } from 'vitest';
import { changeRequest } from './change-request.js';

const AT = new Date('2026-04-15T10:00:00Z');

describe('the change fields of an update (gaps §6)', () => {
  it('is an immediate change when nothing is sent', () => {
    expect(changeRequest(undefined)).toEqual({
      type: 'immediate',
      prorateDate: null,
      renewals: 0,
      earlyRenewal: false,
      prorate: undefined,
      violations: [],
    });
  });

  it('takes a valid combination as sent', () => {
    expect(changeRequest({ change_type: 'at_specified_time', prorate_date: AT, early_renewal: true })).toEqual({
      type: 'at_specified_time',
      prorateDate: AT,
      renewals: 0,
      earlyRenewal: true,
      prorate: undefined,
      violations: [],
    });
    expect(changeRequest({ change_type: 'at_renewal', change_renewal: 11, prorate: false })).toMatchObject({
      type: 'at_renewal',
      renewals: 11,
      prorate: false,
      violations: [],
    });
  });

  it('names each field that does not fit the change type', () => {
    expect(changeRequest({ change_type: 'later' }).violations).toEqual([
      { field: 'change_type', description: '"later" is not a valid choice.' },
    ]);
    expect(changeRequest({ change_type: 'at_specified_time' }).violations).toEqual([
      { field: 'prorate_date', description: 'This field is required with change_type at_specified_time.' },
    ]);
    expect(changeRequest({ prorate_date: AT, change_renewal: 2 }).violations).toEqual([
      { field: 'prorate_date', description: 'Only allowed with change_type at_specified_time.' },
      { field: 'change_renewal', description: 'Only allowed with change_type at_renewal.' },
    ]);
    expect(changeRequest({ change_type: 'at_renewal', change_renewal: 12, early_renewal: true }).violations).toEqual([
      { field: 'change_renewal', description: 'Ensure this value is between 0 and 11.' },
      { field: 'early_renewal', description: 'Only allowed with change_type immediate or at_specified_time.' },
    ]);
  });
});

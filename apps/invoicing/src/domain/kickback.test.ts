import { describe, expect, it } from 'vitest';
import { kickbackUpdateProblem } from './kickback.js';

describe('setting an invoice’s kickback_status', () => {
  it('is allowed, to a status or null, while the organization’s kickback feature is on', () => {
    expect(kickbackUpdateProblem(['kickback'], 'commission_pending')).toBeNull();
    expect(kickbackUpdateProblem(['self_service', 'kickback'], 'commission_paid')).toBeNull();
    expect(kickbackUpdateProblem(['kickback'], null)).toBeNull();
  });

  it('is refused while the feature is off, whatever the status', () => {
    const off = { kind: 'feature_off', message: 'The kickback feature is not enabled for the organization.' };
    expect(kickbackUpdateProblem([], 'commission_pending')).toEqual(off);
    expect(kickbackUpdateProblem(['self_service'], null)).toEqual(off);
    expect(kickbackUpdateProblem(['self_service'], 'nonsense')).toEqual(off);
  });

  it('names a status that is not one of the choices', () => {
    expect(kickbackUpdateProblem(['kickback'], 'commission_due')).toEqual({
      kind: 'invalid_status',
      message: '"commission_due" is not a valid choice.',
    });
  });
});

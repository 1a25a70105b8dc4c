import { describe, expect, it } from 'vitest';
import {
  applicableContract,
  bindingCommitment,
  type Contract,
  commitmentEnd,
  contractApplies,
  withinCommitment,
} from './contracts.js';

const contract = (over: Partial<Contract> = {}): Contract => ({
  plan_terms: 't-1',
  start_date: '2026-01-31',
  end_date: '2026-12-31',
  commitment_length: 0,
  exclusive_tiers: true,
  tiers: [],
  ...over,
});

describe('contracts', () => {
  it('apply on their plan terms between start and end, both inclusive', () => {
    expect(contractApplies(contract(), 't-1', '2026-01-30')).toBe(false);
    expect(contractApplies(contract(), 't-1', '2026-01-31')).toBe(true);
    expect(contractApplies(contract(), 't-1', '2026-12-31')).toBe(true);
    expect(contractApplies(contract(), 't-1', '2027-01-01')).toBe(false);
    expect(contractApplies(contract({ end_date: null }), 't-1', '2099-01-01')).toBe(true);
    expect(contractApplies(contract(), 't-2', '2026-06-01')).toBe(false);
  });

  it('the newest applicable contract wins', () => {
    const a = contract({ start_date: '2026-01-01' });
    const b = contract({ start_date: '2026-06-01' });
    expect(applicableContract([a, b], 't-1', '2026-03-01')).toBe(a);
    expect(applicableContract([a, b], 't-1', '2026-07-01')).toBe(b);
    expect(applicableContract([b, a], 't-1', '2026-07-01')).toBe(b);
    expect(applicableContract([a, b], 't-9', '2026-07-01')).toBeNull();
  });

  it('refuse cancellation inside the commitment (start + commitment_length months, clamped)', () => {
    const c = contract({ commitment_length: 1 });
    expect(commitmentEnd(c)).toBe('2026-02-28');
    expect(withinCommitment(c, '2026-01-31')).toBe(true);
    expect(withinCommitment(c, '2026-02-27')).toBe(true);
    expect(withinCommitment(c, '2026-02-28')).toBe(false);
    expect(withinCommitment(contract({ commitment_length: 12 }), '2027-01-30')).toBe(true);
    expect(withinCommitment(contract({ commitment_length: 12 }), '2027-01-31')).toBe(false);
    expect(withinCommitment(contract(), '2026-01-31')).toBe(false);
    expect(() => commitmentEnd(contract({ commitment_length: -1 }))).toThrow(RangeError);
  });

  describe('the commitment binding a subscription on a day', () => {
    const on = (uuid: string, over: Partial<Contract>) => ({ ...contract(over), uuid });

    it('is that of a contract on its terms while it runs: first and last day inclusive, month-end clamped', () => {
      const three = on('c-3', { start_date: '2026-01-31', commitment_length: 3 });
      const binding = { contract: 'c-3', first_day: '2026-01-31', last_day: '2026-04-29' };
      expect(bindingCommitment([three], 't-1', '2026-01-30')).toBeNull();
      expect(bindingCommitment([three], 't-1', '2026-01-31')).toEqual(binding);
      expect(bindingCommitment([three], 't-1', '2026-04-29')).toEqual(binding);
      expect(bindingCommitment([three], 't-1', '2026-04-30')).toBeNull();
      expect(bindingCommitment([three], 't-2', '2026-02-15')).toBeNull();
    });

    it('ignores contracts without one, and the contract’s end_date (the commitment is its own period)', () => {
      expect(bindingCommitment([on('c-0', { commitment_length: 0 })], 't-1', '2026-02-01')).toBeNull();
      const endsEarly = on('c-e', { start_date: '2026-01-01', end_date: '2026-01-31', commitment_length: 6 });
      expect(bindingCommitment([endsEarly], 't-1', '2026-05-01')).toEqual({
        contract: 'c-e',
        first_day: '2026-01-01',
        last_day: '2026-06-30',
      });
    });

    it('among several running, is the one ending last, in any order', () => {
      const long = on('long', { start_date: '2026-01-01', commitment_length: 12 });
      const short = on('short', { start_date: '2026-03-01', commitment_length: 2 });
      const expected = { contract: 'long', first_day: '2026-01-01', last_day: '2026-12-31' };
      expect(bindingCommitment([long, short], 't-1', '2026-03-15')).toEqual(expected);
      expect(bindingCommitment([short, long], 't-1', '2026-03-15')).toEqual(expected);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { subjectMatches } from './subject-filter.js';

describe('subjectMatches', () => {
  it.each([
    ['accounts.>', 'accounts.account.created', true],
    ['accounts.>', 'accounts', false],
    ['accounts.account.*', 'accounts.account.created', true],
    ['accounts.account.*', 'accounts.account.created.v2', false],
    ['accounts.*.created', 'accounts.recipient.created', true],
    ['accounts.account.created', 'accounts.account.created', true],
    ['accounts.account.created', 'accounts.account.updated', false],
    ['invoicing.>', 'accounts.account.created', false],
  ])('%s matches %s: %s', (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});

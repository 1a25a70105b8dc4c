import { describe, expect, it } from 'vitest';
import {
  InvalidSubscriptionEvent,
  type SubscriptionFacts,
  subscriptionStateOf,
  supersedes,
} from './subscription-state.js';

const ORG = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const facts: SubscriptionFacts = {
  uuid: 'A1B2C3D4-0000-4000-8000-000000000001',
  account: 'b1b2c3d4-0000-4000-8000-000000000002',
  status: 'not_renewing',
  collection_method: 'invoice',
  last_modified_date: new Date('2026-03-01T10:00:00Z'),
  created_date: new Date('2026-02-01T08:00:00Z'),
  version: 3,
};

describe('subscription state from a subscription.changed payload', () => {
  it('keeps what the filters need, uuids in lower case', () => {
    expect(subscriptionStateOf(ORG, facts)).toEqual({
      subscriptionId: 'a1b2c3d4-0000-4000-8000-000000000001',
      organizationId: ORG,
      accountId: 'b1b2c3d4-0000-4000-8000-000000000002',
      status: 'not_renewing',
      collectionMethod: 'invoice',
      lastModifiedAt: new Date('2026-03-01T10:00:00Z'),
      version: 3,
      createdAt: new Date('2026-02-01T08:00:00Z'),
      nextRenewalAt: null,
    });
    const renewing = { ...facts, status: 'active', next_renewal_date: new Date('2026-04-01T00:00:00Z') };
    expect(subscriptionStateOf(ORG, renewing).nextRenewalAt).toEqual(new Date('2026-04-01T00:00:00Z'));
  });

  it('keeps no creation date when the payload has none (listed last by account reads)', () => {
    expect(subscriptionStateOf(ORG, { ...facts, created_date: undefined }).createdAt).toBeNull();
  });

  it('refuses a payload without a subscription', () => {
    expect(() => subscriptionStateOf(ORG, undefined)).toThrow(
      new InvalidSubscriptionEvent('subscription.changed carries no subscription'),
    );
  });

  it('names every unusable field', () => {
    expect(() =>
      subscriptionStateOf('', {
        uuid: 'sub-1',
        account: '',
        status: 'cancelled',
        collection_method: '',
        last_modified_date: undefined,
        version: 0,
      }),
    ).toThrow(
      'Unusable subscription sub-1: organization "" is not a uuid; uuid "sub-1" is not a uuid; account "" is not a uuid; ' +
        'status "cancelled" is not one of scheduled,active,not_renewing,pending_manual_renewal,expired; ' +
        'collection_method is empty; last_modified_date is missing; version is missing',
    );
  });

  it('accepts every status of gaps.md §6', () => {
    for (const status of ['scheduled', 'active', 'not_renewing', 'pending_manual_renewal', 'expired']) {
      expect(subscriptionStateOf(ORG, { ...facts, status }).status).toBe(status);
    }
  });
});

describe('which state wins', () => {
  const at = (version: number) => ({ version });

  it('a greater version replaces the stored one', () => {
    expect(supersedes(at(2), at(3))).toBe(true);
  });

  it('the same version is the same state arriving again: ignored', () => {
    expect(supersedes(at(3), at(3))).toBe(false);
  });

  it('an older version is ignored', () => {
    expect(supersedes(at(3), at(2))).toBe(false);
  });

  it('any real version replaces a row stored before versions were kept (version 0)', () => {
    expect(supersedes(at(0), at(1))).toBe(true);
  });
});

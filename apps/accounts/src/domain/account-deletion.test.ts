import { describe, expect, it } from 'vitest';
import { type DeletionFacts, deletionBlocker } from './account-deletion.js';

const A = 'a0000000-0000-4000-8000-000000000001';
const B = 'b0000000-0000-4000-8000-000000000002';

const facts = (overrides: Partial<DeletionFacts> = {}): DeletionFacts => ({
  invoices: { known: 0, announced: [] },
  confirmed: { existing: [], absent: [] },
  nonExpiredSubscriptions: 0,
  lastRound: false,
  ...overrides,
});

describe('whether an account may be deleted (gaps.md §3)', () => {
  it('may, without invoices and without non-expired subscriptions', () => {
    expect(deletionBlocker(facts())).toEqual({ kind: 'none', forget: [] });
  });

  it('may not while an invoice is known, settled or not', () => {
    expect(deletionBlocker(facts({ invoices: { known: 1, announced: [] } }))).toEqual({ kind: 'invoices' });
  });

  it('may not while a subscription is not expired; invoices are named first', () => {
    expect(deletionBlocker(facts({ nonExpiredSubscriptions: 2 }))).toEqual({ kind: 'subscriptions' });
    expect(deletionBlocker(facts({ invoices: { known: 1, announced: [] }, nonExpiredSubscriptions: 2 }))).toEqual({
      kind: 'invoices',
    });
  });

  it('asks invoicing about announced invoices before anything is decided', () => {
    expect(deletionBlocker(facts({ invoices: { known: 0, announced: [A, B] } }))).toEqual({
      kind: 'unconfirmed',
      invoices: [A, B],
      forget: [],
    });
  });

  it('may not when invoicing says an announced invoice exists', () => {
    const answer = { existing: [A], absent: [B] };
    expect(deletionBlocker(facts({ invoices: { known: 0, announced: [A, B] }, confirmed: answer }))).toEqual({
      kind: 'invoices',
    });
  });

  it('may, forgetting them, when invoicing says none of the announced invoices exists', () => {
    const answer = { existing: [], absent: [A, B] };
    expect(deletionBlocker(facts({ invoices: { known: 0, announced: [A, B] }, confirmed: answer }))).toEqual({
      kind: 'none',
      forget: [A, B],
    });
  });

  it('asks again about invoices announced since the last answer, and counts them as invoices on the last round', () => {
    const answer = { existing: [], absent: [A] };
    const announced = { known: 0, announced: [A, B] };
    expect(deletionBlocker(facts({ invoices: announced, confirmed: answer }))).toEqual({
      kind: 'unconfirmed',
      invoices: [B],
      forget: [A],
    });
    expect(deletionBlocker(facts({ invoices: announced, confirmed: answer, lastRound: true }))).toEqual({
      kind: 'invoices',
    });
  });

  it('ignores answers about invoices that are not announced for the account', () => {
    const answer = { existing: [B], absent: [] };
    expect(deletionBlocker(facts({ confirmed: answer }))).toEqual({ kind: 'none', forget: [] });
  });
});

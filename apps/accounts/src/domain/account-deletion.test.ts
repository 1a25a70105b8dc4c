import { describe, expect, it } from 'vitest';
import { type DeletionFacts, deletionBlocker } from './account-deletion.js';

const A = 'a0000000-0000-4000-8000-000000000001';
const B = 'b0000000-0000-4000-8000-000000000002';

const C = 'c0000000-0000-4000-8000-000000000003';
const D = 'd0000000-0000-4000-8000-000000000004';

const NO_ANSWER: DeletionFacts['confirmed'] = { existing: [], absent: [], invoicedCharges: [], uninvoicedCharges: [] };

const facts = (
  overrides: Partial<Omit<DeletionFacts, 'confirmed'>> & { confirmed?: Partial<DeletionFacts['confirmed']> } = {},
): DeletionFacts => ({
  invoices: { known: 0, announced: [] },
  charges: [],
  nonExpiredSubscriptions: 0,
  lastRound: false,
  ...overrides,
  confirmed: { ...NO_ANSWER, ...overrides.confirmed },
});

describe('whether an account may be deleted (gaps.md §3)', () => {
  it('may, without invoices and without non-expired subscriptions', () => {
    expect(deletionBlocker(facts())).toEqual({ kind: 'none', forget: [], forgetCharges: [] });
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
      charges: [],
      forget: [],
      forgetCharges: [],
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
      forgetCharges: [],
    });
  });

  it('asks again about invoices announced since the last answer, and counts them as invoices on the last round', () => {
    const answer = { existing: [], absent: [A] };
    const announced = { known: 0, announced: [A, B] };
    expect(deletionBlocker(facts({ invoices: announced, confirmed: answer }))).toEqual({
      kind: 'unconfirmed',
      invoices: [B],
      charges: [],
      forget: [A],
      forgetCharges: [],
    });
    expect(deletionBlocker(facts({ invoices: announced, confirmed: answer, lastRound: true }))).toEqual({
      kind: 'invoices',
    });
  });

  it('ignores answers about invoices that are not announced for the account', () => {
    const answer = { existing: [B], absent: [] };
    expect(deletionBlocker(facts({ confirmed: answer }))).toEqual({ kind: 'none', forget: [], forgetCharges: [] });
  });

  it('asks invoicing whether the charges of expired subscriptions are invoiced', () => {
    expect(deletionBlocker(facts({ charges: [C, D] }))).toEqual({
      kind: 'unconfirmed',
      invoices: [],
      charges: [C, D],
      forget: [],
      forgetCharges: [],
    });
  });

  it('may not while a charge is on its way to an invoice', () => {
    expect(
      deletionBlocker(facts({ charges: [C, D], confirmed: { invoicedCharges: [C], uninvoicedCharges: [D] } })),
    ).toEqual({ kind: 'invoices' });
  });

  it('may, forgetting them, once every charge is invoiced (on another account’s invoice, a reseller’s)', () => {
    expect(deletionBlocker(facts({ charges: [C, D], confirmed: { invoicedCharges: [C, D] } }))).toEqual({
      kind: 'none',
      forget: [],
      forgetCharges: [C, D],
    });
  });

  it('asks again about charges named since the last answer, and counts them as invoices on the last round', () => {
    const confirmed = { invoicedCharges: [C] };
    expect(deletionBlocker(facts({ charges: [C, D], confirmed }))).toEqual({
      kind: 'unconfirmed',
      invoices: [],
      charges: [D],
      forget: [],
      forgetCharges: [C],
    });
    expect(deletionBlocker(facts({ charges: [C, D], confirmed, lastRound: true }))).toEqual({ kind: 'invoices' });
  });

  it('names non-expired subscriptions before asking about charges, and ignores answers about charges not named', () => {
    expect(deletionBlocker(facts({ charges: [C], nonExpiredSubscriptions: 1 }))).toEqual({ kind: 'subscriptions' });
    expect(deletionBlocker(facts({ confirmed: { uninvoicedCharges: [D] } }))).toEqual({
      kind: 'none',
      forget: [],
      forgetCharges: [],
    });
  });
});

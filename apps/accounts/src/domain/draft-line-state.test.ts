import { describe, expect, it } from 'vitest';
import { type DraftLineFacts, draftLineStateOf, InvalidDraftLineEvent, supersedes } from './draft-line-state.js';

const ORG = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const facts: DraftLineFacts = {
  uuid: 'C1B2C3D4-0000-4000-8000-000000000001',
  account: 'b1b2c3d4-0000-4000-8000-000000000002',
  created_date: new Date('2026-03-01T10:00:00Z'),
  version: 2,
};

describe('draft line state from a draft_invoice_line event', () => {
  it('keeps what the listing needs, uuids in lower case; created and updated keep the line listed', () => {
    for (const eventType of ['draft_invoice_line.created', 'draft_invoice_line.updated']) {
      expect(draftLineStateOf(ORG, eventType, facts)).toEqual({
        lineId: 'c1b2c3d4-0000-4000-8000-000000000001',
        organizationId: ORG,
        accountId: 'b1b2c3d4-0000-4000-8000-000000000002',
        version: 2,
        createdAt: new Date('2026-03-01T10:00:00Z'),
        removed: false,
      });
    }
  });

  it('deleted and invoiced take the line off its account', () => {
    expect(draftLineStateOf(ORG, 'draft_invoice_line.deleted', facts).removed).toBe(true);
    expect(draftLineStateOf(ORG, 'draft_invoice_line.invoiced', facts).removed).toBe(true);
  });

  it('refuses a payload without a line', () => {
    expect(() => draftLineStateOf(ORG, 'draft_invoice_line.created', undefined)).toThrow(
      new InvalidDraftLineEvent('draft_invoice_line.created carries no line'),
    );
  });

  it('names every unusable field', () => {
    expect(() =>
      draftLineStateOf('', 'draft_invoice_line.moved', {
        uuid: 'line-1',
        account: 'acme',
        created_date: undefined,
        version: 0,
      }),
    ).toThrow(
      'Unusable draft line line-1: event type "draft_invoice_line.moved" is not one of draft_invoice_line.created,' +
        'draft_invoice_line.updated,draft_invoice_line.deleted,draft_invoice_line.invoiced; organization "" is not a uuid; ' +
        'uuid "line-1" is not a uuid; account "acme" is not a uuid; created_date is missing; version is missing',
    );
  });
});

describe('which draft line state wins', () => {
  const listed = (version: number) => ({ version, removed: false });
  const removed = (version: number) => ({ version, removed: true });

  it('a greater version replaces the stored one, listed or removed', () => {
    expect(supersedes(listed(1), listed(2))).toBe(true);
    expect(supersedes(listed(1), removed(2))).toBe(true);
  });

  it('an equal version is the same state again, except a removal of the state it ends', () => {
    expect(supersedes(listed(2), listed(2))).toBe(false);
    expect(supersedes(removed(2), removed(2))).toBe(false);
    expect(supersedes(listed(2), removed(2))).toBe(true);
  });

  it('a removed line is not brought back by an older or equal state', () => {
    expect(supersedes(removed(3), listed(1))).toBe(false);
    expect(supersedes(removed(3), listed(3))).toBe(false);
  });

  it('an older version is ignored', () => {
    expect(supersedes(listed(3), listed(2))).toBe(false);
    expect(supersedes(listed(3), removed(2))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidPaymentCardEvent, paymentCardStateOf } from './payment-card-state.js';

const ORG = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const CARD = '7B7E1C2A-0E0F-4D8C-8C3E-2F9A6B1D4E57';
const ACCOUNT = '5c2a1e3d-7b6f-4a9e-8d1c-0f2e3a4b5c6d';

describe('payment card state', () => {
  it('keeps what the read model needs, uuids in lower case', () => {
    const created = new Date('2026-01-15T09:00:00Z');
    expect(
      paymentCardStateOf(ORG, { uuid: CARD, account: ACCOUNT, active: true, version: 2, created_date: created }),
    ).toEqual({
      cardId: CARD.toLowerCase(),
      organizationId: ORG,
      accountId: ACCOUNT,
      active: true,
      version: 2,
      createdDate: created,
    });
  });

  it('refuses a card without a version or with a broken account', () => {
    expect(() => paymentCardStateOf(ORG, undefined)).toThrow(InvalidPaymentCardEvent);
    expect(() =>
      paymentCardStateOf(ORG, { uuid: CARD, account: 'x', active: true, version: 0, created_date: new Date() }),
    ).toThrow(
      'Unusable payment card 7B7E1C2A-0E0F-4D8C-8C3E-2F9A6B1D4E57: account "x" is not a uuid; version is missing',
    );
  });
});

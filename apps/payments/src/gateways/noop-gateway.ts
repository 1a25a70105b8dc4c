import {
  type ChargeRequest,
  type GatewayAdapter,
  type GatewayCallback,
  type RegistrationRequest,
  type RegistrationStart,
  UnknownCardToken,
} from '../domain/gateway-adapter.js';
import type { ChargeResult } from '../domain/payment-attempt.js';
import type { CardDetails } from '../domain/payment-card.js';

/**
 * gaps.md §11: the built-in gateway for trying the platform. No money moves and it needs no
 * credentials. `noop_visa` and `noop_mastercard` register cards whose charges succeed,
 * `noop_declined` one whose charges are declined. Its card-entry page is one of ours (served by the
 * REST gateway), and completing it is its callback.
 */
export const NOOP_TEST_CARDS: Readonly<Record<string, Omit<CardDetails, 'gatewayId' | 'gatewayCustomer'>>> = {
  noop_visa: { brand: 'visa', last4: '4242', month: 12, year: 2030, name: 'Noop Visa' },
  noop_mastercard: { brand: 'mastercard', last4: '4444', month: 12, year: 2030, name: 'Noop Mastercard' },
  noop_declined: { brand: 'visa', last4: '0002', month: 12, year: 2030, name: 'Noop Declined' },
};

export const NOOP_TOKENS = Object.keys(NOOP_TEST_CARDS);

export function noopGateway(): GatewayAdapter {
  return {
    gateway: 'noop',
    async retrieveCard(token: string): Promise<CardDetails> {
      const card = NOOP_TEST_CARDS[token];
      if (!card) throw new UnknownCardToken(`Unknown noop token "${token}"; one of ${NOOP_TOKENS.join(', ')}.`);
      // The token names the card's behaviour; the charge reads it back from the card's gateway id.
      return { ...card, gatewayId: token, gatewayCustomer: null };
    },
    async startRegistration(request: RegistrationRequest): Promise<RegistrationStart> {
      return { url: request.noopPageUrl, externalId: '' };
    },
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      // The reference is derived from the idempotency key: a retried attempt gets the same answer.
      const reference = `noop_ch_${request.idempotencyKey}`;
      if (request.card.gatewayId === 'noop_declined') {
        return { outcome: 'declined', reference, reason: 'card_declined' };
      }
      return { outcome: 'succeeded', reference };
    },
    async parseCallback(): Promise<GatewayCallback> {
      // The noop page completes registrations through CompleteNoopRegistration, not a callback.
      return { kind: 'ignored', eventId: '' };
    },
  };
}

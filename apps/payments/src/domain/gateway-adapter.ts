import type { ChargeResult } from './payment-attempt.js';
import type { CardDetails } from './payment-card.js';

/** A charge off-session (the customer is not there): the attempt's id is the idempotency key. */
export interface ChargeRequest {
  idempotencyKey: string;
  /** In the currency's minor unit (cents, øre), as gateways count. */
  amountMinor: bigint;
  currency: string;
  card: { gatewayId: string; gatewayCustomer: string | null };
  description: string;
}

/** Where the customer enters a card, and what the gateway calls the registration. */
export interface RegistrationStart {
  url: string;
  /** The gateway's own id of the registration (a checkout session), '' when it has none. */
  externalId: string;
}

export interface RegistrationRequest {
  registrationId: string;
  accountId: string;
  currency: string | null;
  /** Our page the customer returns to when done. */
  returnUrl: string;
  /** Our page for the noop gateway, which has no page of its own. */
  noopPageUrl: string;
}

/** What a gateway's callback says happened: a card registered (for one of our registrations). */
export type GatewayCallback =
  | { kind: 'card_registered'; eventId: string; registrationId: string; token: string }
  | { kind: 'ignored'; eventId: string };

/**
 * One payment gateway, as the payments service uses it (gaps.md §11). Adapters live in gateways/;
 * each is built for one organization's credentials.
 */
export interface GatewayAdapter {
  readonly gateway: string;
  /** The card behind a token the integrator got from the gateway (cardgw_a: a payment method id). */
  retrieveCard(token: string): Promise<CardDetails>;
  startRegistration(request: RegistrationRequest): Promise<RegistrationStart>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Verifies a callback's signature and says what it reports; throws GatewayCallbackRejected when it is not genuine. */
  parseCallback(body: Uint8Array, headers: Readonly<Record<string, string>>): Promise<GatewayCallback>;
}

/** The gateway refused the token: the integrator sent something it does not know (a 400 on `token`). */
export class UnknownCardToken extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownCardToken';
  }
}

/** A callback that is not the gateway's (bad signature): answered 400 and not applied. */
export class GatewayCallbackRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayCallbackRejected';
  }
}

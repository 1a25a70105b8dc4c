import Stripe from 'stripe';
import {
  type ChargeRequest,
  type GatewayAdapter,
  type GatewayCallback,
  GatewayCallbackRejected,
  type RegistrationRequest,
  type RegistrationStart,
  UnknownCardToken,
} from '../domain/gateway-adapter.js';
import type { ChargeResult } from '../domain/payment-attempt.js';
import type { CardDetails } from '../domain/payment-card.js';

export interface StripeGatewayOptions {
  gateway: 'cardgw_a' | 'cardgw_a_new';
  secretKey: string;
  webhookSecret: string;
  /** Where Stripe's API is (CARDGW_A_API_URL): https://api.stripe.com, or a local fake in tests. */
  apiUrl: string;
}

/**
 * cardgw_a and cardgw_a_new: Stripe's API through the official SDK (gaps.md §11: tokens are
 * payment method ids). Cards are read with payment_methods.retrieve, registered through a Checkout
 * Session in setup mode (the webhook checkout.session.completed names our registration as
 * client_reference_id; its SetupIntent names the payment method), and charged off-session with a
 * PaymentIntent confirmed at once, sending our attempt id as Idempotency-Key. The SDK's own
 * retries are off: a retry is ours, with the same key.
 */
export function stripeGateway(options: StripeGatewayOptions): GatewayAdapter {
  const url = new URL(options.apiUrl);
  const stripe = new Stripe(options.secretKey, {
    host: url.hostname,
    port: url.port || (url.protocol === 'http:' ? 80 : 443),
    protocol: url.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 0,
    telemetry: false,
    timeout: 30_000,
  });
  return {
    gateway: options.gateway,
    async retrieveCard(token: string): Promise<CardDetails> {
      let method: Stripe.PaymentMethod;
      try {
        method = await stripe.paymentMethods.retrieve(token);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          throw new UnknownCardToken(`The payment gateway does not know the payment method "${token}".`);
        }
        throw error;
      }
      if (!method.card) throw new UnknownCardToken(`The payment method "${token}" is not a card.`);
      return {
        brand: method.card.brand,
        last4: method.card.last4,
        month: method.card.exp_month,
        year: method.card.exp_year,
        name: method.billing_details?.name ?? '',
        gatewayId: method.id,
        gatewayCustomer: typeof method.customer === 'string' ? method.customer : (method.customer?.id ?? null),
      };
    },
    async startRegistration(request: RegistrationRequest): Promise<RegistrationStart> {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'setup',
          ...(request.currency ? { currency: request.currency.toLowerCase() } : {}),
          client_reference_id: request.registrationId,
          metadata: { registration: request.registrationId, account: request.accountId },
          success_url: request.returnUrl,
          cancel_url: request.returnUrl,
        },
        { idempotencyKey: `registration-${request.registrationId}` },
      );
      if (!session.url) throw new Error(`Checkout session ${session.id} has no url`);
      return { url: session.url, externalId: session.id };
    },
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: Number(request.amountMinor),
            currency: request.currency.toLowerCase(),
            payment_method: request.card.gatewayId,
            ...(request.card.gatewayCustomer ? { customer: request.card.gatewayCustomer } : {}),
            off_session: true,
            confirm: true,
            description: request.description,
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (intent.status === 'succeeded') return { outcome: 'succeeded', reference: intent.id };
        return { outcome: 'declined', reference: intent.id, reason: intent.status };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const intent = (error.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
          return {
            outcome: 'declined',
            reference: intent?.id ?? '',
            reason: error.decline_code ?? error.code ?? 'card_declined',
          };
        }
        throw error;
      }
    },
    async parseCallback(body: Uint8Array, headers: Readonly<Record<string, string>>): Promise<GatewayCallback> {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          Buffer.from(body),
          headers['stripe-signature'] ?? '',
          options.webhookSecret,
        );
      } catch (error) {
        throw new GatewayCallbackRejected(`The callback's signature does not verify: ${(error as Error).message}`);
      }
      if (event.type !== 'checkout.session.completed') return { kind: 'ignored', eventId: event.id };
      const session = event.data.object;
      if (session.mode !== 'setup' || !session.client_reference_id || !session.setup_intent) {
        return { kind: 'ignored', eventId: event.id };
      }
      const setupIntentId = typeof session.setup_intent === 'string' ? session.setup_intent : session.setup_intent.id;
      const setupIntent = await stripe.setupIntents.retrieve(setupIntentId);
      const method = setupIntent.payment_method;
      if (!method) return { kind: 'ignored', eventId: event.id };
      return {
        kind: 'card_registered',
        eventId: event.id,
        registrationId: session.client_reference_id,
        token: typeof method === 'string' ? method : method.id,
      };
    },
  };
}
